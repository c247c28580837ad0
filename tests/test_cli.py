"""The `briscola` command: help, selfplay and its errors."""

import pytest

from briscola_tui.cli import main


def test_help_lists_the_commands(capsys):
    # `briscola` alone opens the app now (tested under Pilot in tests/test_tui.py).
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert "replay" in out and "selfplay" in out and "verify" in out
    assert "play" in out and "home screen" in out


@pytest.mark.slow
@pytest.mark.parametrize("game, players", [("briscola", 4), ("chiamata", 5), ("calabresella", 3)])
def test_selfplay_prints_every_hand_and_the_scores(game, players, tmp_path, capsys):
    path = tmp_path / "t.bin"
    status = main(
        [
            "selfplay",
            "--game",
            game,
            "--players",
            str(players),
            "--hands",
            "1",
            "--seed",
            "4",
            "--transcript",
            str(path),
        ]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "hand 1:" in out and "scores:" in out
    assert "table closed after 1 hand" in out.splitlines()
    assert path.stat().st_size > 0
    assert main(["verify", str(path)]) == 0
    assert "all checks pass" in capsys.readouterr().out


def test_selfplay_plays_a_whole_match_by_default(capsys):
    assert main(["selfplay", "--game", "briscola", "--seed", "1", "-o", "match=1"]) == 0
    out = capsys.readouterr().out
    assert "winners: seats" in out


@pytest.mark.slow
def test_selfplay_names_its_options_as_they_are_given_so_a_run_can_be_repeated(capsys):
    assert (
        main(["selfplay", "--hands", "1", "-q", "--seed", "2", "-o", "seven_second=true", "-o", "trump_exchange=2"])
        == 0
    )
    header = capsys.readouterr().out.splitlines()[0]
    flags = header.split("options ", 1)[1].split(",", 1)[0].split()
    assert "seven_second=true" in flags and "trump_exchange=2" in flags and "black_hand=false" in flags
    again = [arg for flag in flags for arg in ("-o", flag)]
    assert main(["selfplay", "--hands", "1", "-q", "--seed", "2", *again]) == 0
    assert capsys.readouterr().out.splitlines()[0] == header


@pytest.mark.parametrize(
    "args, message",
    [
        (["--players", "7"], "2, 3, 4, 6 players, not 7"),
        (["--game", "chiamata", "--players", "3"], "5 players, not 3"),
        (["-o", "bogus=1"], "unknown briscola option 'bogus'"),
        (["-o", "trump_exchange=9"], "trump_exchange must be one of"),
        (["--transcript", "/nonexistent/folder/t.bin"], "no folder"),
    ],
)
def test_selfplay_refuses_bad_settings_before_playing(args, message, capsys):
    assert main(["selfplay", *args]) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert "hand 1" not in captured.out


@pytest.mark.parametrize("hands", ["0", "-1", "two"])
def test_selfplay_hands_must_be_positive(hands, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["selfplay", "--hands", hands])
    assert exit_info.value.code == 2
    assert "at least 1" in capsys.readouterr().err


def test_the_command_line_takes_its_defaults_from_the_options_objects():
    """`briscola play/host/join/watch` and the home screen's forms share one set of defaults."""
    from briscola_tui.cli import build_parser, host_options, join_options, watch_options
    from briscola_tui.options import HostOptions, JoinOptions, PlayOptions, WatchOptions

    parser = build_parser()
    parsed = vars(parser.parse_args(["play"]))
    assert {name: parsed[name] for name in vars(PlayOptions())} == vars(PlayOptions())
    assert host_options(parser.parse_args(["host"])) == HostOptions()
    address = "127.0.0.1:7777"
    assert join_options(parser.parse_args(["join", address])) == JoinOptions(address=address)
    assert watch_options(parser.parse_args(["watch", address])) == WatchOptions(address=address)


@pytest.mark.parametrize("command", ["play", "host", "join", "watch"])
def test_ascii_holds_before_the_command_as_after_it(command):
    """Issue 46: `briscola --ascii play` drew box lines all the same (the command's own --ascii,
    not given, put False over the one given before it)."""
    from briscola_tui.cli import build_parser, host_options, join_options, watch_options

    options = {"host": host_options, "join": join_options, "watch": watch_options}.get(command, lambda args: args)
    rest = ["127.0.0.1:7777"] if command in ("join", "watch") else []
    parser = build_parser()
    assert options(parser.parse_args(["--ascii", command, *rest])).ascii is True
    assert options(parser.parse_args([command, *rest, "--ascii"])).ascii is True
    assert options(parser.parse_args([command, *rest])).ascii is False
