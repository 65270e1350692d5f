"""Backend options, generated from the declarations: a new option is covered by itself.

For every backend that loads here and every option it declares (``OPTIONS``): values
that its kind rules out (wrong type, out of range, not a choice, ``none`` where it is
not allowed) are refused with an ``InvalidArgument`` naming the option and the value,
the same way from a spec, from ``-O`` pairs and from the CLI (exit 2, one line); the
default and the bounds build.  Unknown names are refused.
"""

from __future__ import annotations

import inspect
from enum import Enum
from pathlib import Path

import pytest
from click.testing import CliRunner

from nonolab.cli.main import cli
from nonolab.errors import BackendUnavailable, InvalidArgument, UnknownBackend
from nonolab.solvers import DEFAULT, build, get, names, options_of, parse_spec
from nonolab.solvers.options import Option

PUZZLE = str(Path(__file__).resolve().parents[1] / "data" / "formats" / "heart.non")


def _loads(name: str) -> bool:
    try:
        options_of(name)
        get(name)
    except BackendUnavailable:
        return False
    return True


LOADED = [name for name in names() if _loads(name)]
DECLARED = [(name, option) for name in LOADED for option in options_of(name)]
IDS = [f"{name}.{option.name}" for name, option in DECLARED]


def bad_values(option: Option) -> list[str]:
    """Values the option's declaration rules out, as a user would type them."""
    bad = []
    if option.kind == "int":
        bad += ["x", "1.5", "true"]
    elif option.kind == "float":
        bad += ["x", "nan", "inf"]
    elif option.kind == "bool":
        bad += ["maybe", "2"]
    elif option.kind == "choice":
        bad += ["no-such-value", option.allowed()[0].upper() + "!"]
    if option.minimum is not None:
        below = option.minimum - 1
        bad.append(str(int(below)) if option.kind == "int" else str(below))
    if option.maximum is not None:
        above = option.maximum + 1
        bad.append(str(int(above)) if option.kind == "int" else str(above))
    if option.kind == "int":
        bad.append(str(2**63))   # beyond every engine's integers (an OverflowError traceback once)
    if not option.optional and not (option.kind == "choice" and "none" in option.allowed()):
        bad.append("none")
    return bad


def needed_on(option: Option) -> dict[str, str]:
    """The option ``option`` needs, turned on (``{"modes": "1"}``), for a value of it to be taken;
    nothing for an option that needs none.  (Alone, such a value is refused: the test below.)
    A chain is followed (lcg's ``shake_churn_window`` needs ``shake_churn``, which needs ``shake``)."""
    backend = next(name for name, declared in DECLARED if declared is option)
    mine = {declared.name: declared for declared in options_of(backend)}
    needed: dict[str, str] = {}
    while option.needs:
        needed[option.needs] = "1"
        option = mine[option.needs]
    return needed


def good_values(option: Option) -> list[str]:
    """Values the declaration accepts, as typed: the default, the bounds, every choice."""
    good = [] if option.default is None else [str(option.default).lower() if isinstance(option.default, bool)
                                              else str(option.default)]
    if option.kind == "bool":
        good += ["true", "off"]
    elif option.kind == "choice":
        good += list(option.allowed())
    else:
        good += [str(bound) for bound in (option.minimum, option.maximum) if bound is not None]
    if option.optional:
        good.append("none")
    return good


def test_every_loadable_backend_declares_options_or_none():
    assert DEFAULT in LOADED
    for name in LOADED:
        for option in options_of(name):
            assert option.help and option.kind in ("int", "float", "bool", "choice")


@pytest.mark.parametrize("name, option", DECLARED, ids=IDS)
def test_bad_values_are_refused_naming_the_option_the_same_way_everywhere(name, option):
    for value in bad_values(option):
        with pytest.raises(InvalidArgument) as from_pairs:
            build(name, [f"{option.name}={value}"])
        message = str(from_pairs.value)
        assert f"backend {name!r}: option {option.name}={value}: expected" in message
        with pytest.raises(InvalidArgument) as from_spec:
            build(f"{name}:{option.name}={value}")
        assert str(from_spec.value) == message
        with pytest.raises(InvalidArgument) as from_python:
            get(name, **{option.name: value})
        assert str(from_python.value) == message


@pytest.mark.parametrize("name, option", DECLARED, ids=IDS)
def test_good_values_build_and_spec_and_pairs_agree(name, option):
    needed = [f"{k}={v}" for k, v in needed_on(option).items()]
    for value in good_values(option):
        try:
            from_pairs = build(name, [f"{option.name}={value}", *needed])
        except BackendUnavailable:  # accepted, but this installation lacks it (a python-sat solver)
            continue
        from_spec = build(f"{name}:{','.join([f'{option.name}={value}', *needed])}")
        assert type(from_pairs) is type(from_spec)
        parsed = option.parse(value, name)
        assert option.parse(parsed, name) == parsed  # a checked value passes again unchanged


def largest(option: Option) -> int:
    """The largest value an ``"int"`` option takes: its maximum, else the engines' 64-bit limit."""
    return int(option.maximum) if option.maximum is not None else 2**63 - 1


INTS = [(name, option) for name, option in DECLARED if option.kind == "int"]


@pytest.mark.parametrize("name, option", INTS, ids=[f"{n}.{o.name}" for n, o in INTS])
def test_the_largest_value_an_int_option_takes_runs_a_count(name, option):
    # A value the declaration takes must reach the engine intact: native's node_limit, lcg's
    # hint_conflicts (2**63: OverflowError) and cpsat's probing_level (2**31: TypeError) were tracebacks.
    needed = {k: int(v) for k, v in needed_on(option).items()}
    extra = {"line": "enumerate"} if option.name == "line_cap" else {}
    if option.name in ("probe_depth", "deep_sweeps"):
        extra = {"restarts": False}
    try:
        backend = get(name, **{option.name: largest(option), **needed, **extra})
    except BackendUnavailable:
        pytest.skip(f"{name} is not installed here")
    from nonolab.core.puzzle import Puzzle
    from nonolab.solvers import Limits
    result = backend.solve(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))), Limits(None, 20.0))
    assert len(result.solutions) == 2 and result.complete


@pytest.mark.parametrize("name, option", [(n, o) for n, o in DECLARED if o.needs], ids=lambda x: getattr(x, "name", x))
def test_an_option_that_needs_another_is_refused_without_it_naming_both(name, option):
    assert option.needs in {o.name for o in options_of(name)}          # it names a declared option
    other = next(v for v in good_values(option) if option.parse(v, name) != option.default)
    with pytest.raises(InvalidArgument, match=f"backend {name!r}: option {option.name}={other} changes nothing "
                                              f"while {option.needs} is off"):
        build(f"{name}:{option.name}={other}")
    build(f"{name}:{option.name}={option.default}")                  # its default: nothing to refuse
    build(f"{name}:{option.name}={other}," + ",".join(f"{k}={v}" for k, v in needed_on(option).items()))


@pytest.mark.parametrize("name", LOADED)
def test_unknown_option_names_are_refused(name):
    with pytest.raises(InvalidArgument, match=f"backend {name!r}: unknown option 'no_such_option'"):
        build(name, ["no_such_option=1"])
    with pytest.raises(InvalidArgument, match="unknown option"):
        get(name, no_such_option=1)


def test_programmatic_options_are_refused_as_text_and_accepted_from_python():
    calls = []
    with pytest.raises(InvalidArgument, match="unknown option 'progress'"):
        build("native", ["progress=print"])
    assert get("native", progress=lambda done, total: calls.append(done)).progress is not None


def test_malformed_pairs_and_unknown_backends():
    with pytest.raises(InvalidArgument, match="not KEY=VALUE"):
        build("native", ["probing"])
    with pytest.raises(InvalidArgument, match="not KEY=VALUE"):
        build("native:probing")
    with pytest.raises(UnknownBackend):
        build("no-such-backend")
    assert parse_spec("native:line=overlap, probing=none") == ("native", {"line": "overlap", "probing": "none"})


def test_pairs_override_the_spec_and_python_overrides_both():
    solver = build("native:probing=none,line=overlap", ["probing=contradiction"], line="enumerate")
    assert solver.probing.value == "contradiction" and solver.line.name == "enumerate"


def test_the_issue_examples_are_refused():
    for spec, pair in [("cpsat", "workers=0"), ("cpsat", "workers=x"), ("auto", "cdcl=foo"),
                       ("native", "probing=bogus"), ("native", "cache_bytes=-1"), ("native", "node_limit=abc"),
                       ("auto", "race=maybe")]:
        if spec in LOADED:
            with pytest.raises(InvalidArgument, match=pair.split("=")[0]):
                build(spec, [pair])


@pytest.mark.parametrize("name, option", DECLARED, ids=IDS)
def test_the_cli_refuses_a_bad_value_with_exit_2_and_one_line(name, option):
    value = bad_values(option)[0]
    result = CliRunner().invoke(cli, ["check", "-b", name, "-O", f"{option.name}={value}", PUZZLE])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and f"option {option.name}={value}" in lines[0], result.stderr


def test_cli_check_cpsat_workers_0():
    if "cpsat" not in LOADED:
        pytest.skip("OR-tools is not installed")
    result = CliRunner().invoke(cli, ["check", "-b", "cpsat", "-O", "workers=0", PUZZLE])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == ["nonolab: error: backend 'cpsat': option workers=0: "
                                          "expected an integer from 1 to 256"]


# -- the declarations are the constructors' only source ---------------------------------------

def _class_of(name: str) -> type:
    return type(get(name))


def _as_declared(value):
    """An attribute as its option would show it: an enum's value, a line strategy's name."""
    if isinstance(value, Enum):
        return value.value
    if not isinstance(value, (str, int, float, type(None))) and isinstance(getattr(value, "name", None), str):
        return value.name
    return value


@pytest.mark.parametrize("name", LOADED)
def test_constructors_declare_no_option_again(name):
    """A constructor takes its declared options as ``**options`` only: a default or a check
    written into its signature would be a second declaration (and could differ)."""
    cls = _class_of(name)
    for method in (cls.__init__, cls.__new__):
        if method is object.__init__ or method is object.__new__:
            continue
        params = list(inspect.signature(method).parameters.values())[1:]
        kinds = {p.kind for p in params}
        assert inspect.Parameter.VAR_KEYWORD in kinds, (name, method)
        named = {p.name for p in params if p.kind is not inspect.Parameter.VAR_KEYWORD}
        assert kinds <= {inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_KEYWORD}, (name, method, named)
        assert not named & {o.name for o in options_of(name)}, (name, named)
        assert named <= set(getattr(cls, "PROGRAMMATIC", ())), (name, named)


@pytest.mark.parametrize("name", LOADED)
def test_every_declared_option_has_its_attribute_type_and_no_other_name_does(name):
    """The class annotates the attributes settle() sets (for the type checker): the same
    names as OPTIONS, so that a renamed or removed option cannot leave a stale one."""
    cls = _class_of(name)
    annotated = {key for klass in cls.__mro__ for key in vars(klass).get("__annotations__", {})}
    declared = {o.name for o in options_of(name)}
    assert declared <= annotated, (name, declared - annotated)
    stale = {key for key in annotated - declared if not hasattr(cls, key) and key not in vars(get(name))}
    assert not stale, (name, stale)


@pytest.mark.parametrize("name", LOADED)
def test_a_bare_backend_holds_every_declared_default(name):
    solver = _class_of(name)()
    for option in options_of(name):
        value = _as_declared(getattr(solver, option.name))
        if option.default is None:   # "unset": the backend decides (auto's cdcl and rival)
            assert value is None or option.parse(value, name) == value, (name, option.name, value)
        else:
            assert value == option.default, (name, option.name, value, option.default)
        assert option.parse(option.default, name) == option.default  # a default its declaration accepts


@pytest.mark.parametrize("name, option", DECLARED, ids=IDS)
def test_the_class_itself_takes_and_refuses_values_by_its_declaration(name, option):
    """Built directly (not through the registry), a backend checks each option the same
    way: no constructor may take a value its declaration refuses, or store another."""
    cls = _class_of(name)
    for value in bad_values(option):
        with pytest.raises(InvalidArgument) as direct:
            cls(**{option.name: value})
        with pytest.raises(InvalidArgument) as built:
            build(name, [f"{option.name}={value}"])
        assert str(direct.value) == str(built.value)
    for value in good_values(option):
        try:
            solver = cls(**{option.name: value, **needed_on(option)})
        except BackendUnavailable:
            continue
        parsed = option.parse(value, name)
        held = _as_declared(getattr(solver, option.name))
        if option.name in ("cdcl", "rival", "race") and name == "auto":
            continue  # the race's two sides decide each other (test_auto.py)
        assert held == parsed or (parsed is None and option.default is None), (name, option.name, value, held)


def test_experimental_knobs_are_said_so_in_the_listing():
    listing = CliRunner().invoke(cli, ["backends"]).stdout
    lines = {line.strip().split("  ")[0]: line for line in listing.splitlines() if line.strip().startswith("-O ")}
    experimental = 0
    for name, option in DECLARED:
        shown = [line for key, line in lines.items() if key.startswith(f"-O {option.name}=")]
        assert shown, (name, option.name)
        if option.experimental:
            experimental += 1
            assert any("(experimental)" in line for line in shown), (name, option.name)
    assert experimental and sum("(experimental)" in line for line in listing.splitlines()) == experimental


# -- the command line's choices are the declarations' -----------------------------------------

def _commands(group, path=()):
    import click

    ctx = click.Context(group)
    for command_name in group.list_commands(ctx):
        command = group.get_command(ctx, command_name)
        yield path + (command_name,), command
        if isinstance(command, click.Group):
            yield from _commands(command, path + (command_name,))


def _declared_choices(option_name: str) -> list[tuple[str, tuple[str, ...]]]:
    return [(name, option.allowed()) for name, option in DECLARED
            if option.name == option_name and option.kind == "choice"]


def test_every_cli_choice_named_as_a_backend_option_has_exactly_its_declared_choices():
    import click

    seen = set()
    for path, command in _commands(cli):
        for param in command.params:
            if not isinstance(param.type, click.Choice) or not _declared_choices(param.name):
                continue
            seen.add(param.name)
            for backend, allowed in _declared_choices(param.name):
                assert tuple(param.type.choices) == allowed, (path, param.name, backend)
            help_text = CliRunner().invoke(cli, [*path, "--help"], terminal_width=200).stdout
            assert "[" + "|".join(param.type.choices) + "]" in help_text, (path, param.name)
    assert {"probing", "line"} <= seen


@pytest.mark.parametrize("flag", ["probing", "line"])
def test_the_cli_takes_each_declared_choice_and_refuses_others(flag, tmp_path):
    (allowed,) = {choices for _, choices in _declared_choices(flag)}
    for value in allowed:
        result = CliRunner().invoke(cli, ["count", "-b", "native", f"--{flag}", value, PUZZLE])
        assert result.exit_code == 0, (value, result.output)
    result = CliRunner().invoke(cli, ["count", "-b", "native", f"--{flag}", "no-such-value", PUZZLE])
    assert result.exit_code == 2 and "no-such-value" in result.stderr


@pytest.mark.parametrize("args", [["-O", "workers=2", "-O", "workers=3"], ["-b", "cpsat:workers=2,workers=3"]],
                         ids=["two pairs", "spec"])
def test_one_option_given_two_values_is_refused_not_the_last_taken(args):
    # Audit 10: the last value was taken in silence, where a key given twice in a puzzle
    # file is a one-line error (docs/formats.md); the same value twice is no conflict.
    if "cpsat" not in LOADED:
        pytest.skip("OR-tools is not installed")
    result = CliRunner().invoke(cli, ["check", *(["-b", "cpsat"] if args[0] == "-O" else []), *args, PUZZLE])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1].endswith("backend option workers given twice, differently: 2, then 3")
    assert len(result.stderr.splitlines()) == 1
    assert CliRunner().invoke(cli, ["check", "-b", "cpsat", "-O", "workers=2", "-O", "workers=2", PUZZLE]).exit_code == 0


@pytest.mark.parametrize("flag, pair", [(["--probing", "none"], "probing=full"), (["--line", "overlap"], "line=dp")])
def test_a_shortcut_flag_and_a_pair_that_disagree_are_refused(flag, pair):
    # Before, the flag won in silence: `-O probing=full --probing none` searched without probing.
    result = CliRunner().invoke(cli, ["check", "-b", "native", "-O", pair, *flag, PUZZLE])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [f"nonolab: error: backend option {flag[0][2:]} given twice, differently: "
                                          f"{pair.partition('=')[2]}, then {flag[1]}"]
    agreeing = CliRunner().invoke(cli, ["check", "-b", "native", "-O", f"{flag[0][2:]}={flag[1]}", *flag, PUZZLE])
    assert agreeing.exit_code == 0, agreeing.stderr
