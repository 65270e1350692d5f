// The workbench's downloads: every <a download> of the page (the puzzle's, the certificate's) is
// fetched, not followed, so that one the server refuses (no givens in the format, a certificate it
// forgot) shows its error line and saves nothing.  app.js installs it with the page's token and
// its error line.  A link with data-gone says that in its place once the server no longer has
// what it points to (404): the page does not go on offering it.
window.nonolabDownloads = function (token, showError) {
  "use strict";
  document.addEventListener("click", function (e) {
    var link = e.target.closest("a[download]");
    if (!link) return;
    e.preventDefault();
    showError("");
    fetch(link.href, {headers: {"X-Nonolab-Token": token}, credentials: "same-origin"}).then(function (response) {
      if (!response.ok) {
        if (response.status === 404 && link.dataset.gone && link.parentNode) {
          link.parentNode.textContent = link.dataset.gone;   // (the link goes with the line it ended)
        }
        return response.json().then(function (body) { showError(body.error || response.statusText); });
      }
      var name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
      return response.blob().then(function (blob) {
        var a = document.createElement("a");   // (not in the page: its click is not caught here)
        a.href = URL.createObjectURL(blob);
        a.download = name ? name[1] : link.download || "puzzle";
        a.click();
        setTimeout(function () { URL.revokeObjectURL(a.href); }, 60000);
      });
    }).catch(function (err) { showError(String(err)); });
  });
};
