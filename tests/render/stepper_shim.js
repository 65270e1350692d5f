// A minimal DOM: enough for the stepper's script (frames, slider, buttons, captions).
const fs = require('fs');
const page = fs.readFileSync(process.argv[2], 'utf8');
const script = page.slice(page.lastIndexOf('<script>') + 8, page.lastIndexOf('</script>'));
const captions = page.match(/<script type="application\/json" id="captions">([\s\S]*?)<\/script>/)[1];
const n = (page.match(/<g class="step"/g) || []).length;
function classList() { const s = new Set(); return { toggle(c, on) { on ? s.add(c) : s.delete(c); }, has: c => s.has(c) }; }
const frames = Array.from({length: n}, () => ({classList: classList()}));
const els = {};
const el = id => els[id] || (els[id] = {id, value: '0', textContent: id === 'captions' ? captions : '', listeners: {},
  addEventListener(t, f) { this.listeners[t] = f; }});
global.document = {querySelectorAll: () => frames, getElementById: el, addEventListener() {}};
global.setInterval = () => 1; global.clearInterval = () => {};
eval(script);
const state = () => frames.map(f => f.classList.has('off') ? '-' : f.classList.has('now') ? '*' : '+').join('');
const out = [state() + ' ' + el('caption').textContent];
el('next').onclick(); out.push(state() + ' ' + el('caption').textContent);
el('next').onclick(); out.push(state() + ' ' + el('counter').textContent);
el('last').onclick(); out.push(state());
el('prev').onclick(); out.push(state());
el('slider').value = '1'; el('slider').listeners.input(); out.push(state());
el('first').onclick(); out.push(state());
console.log(out.join('\n'));
