"""A cold ``pbem report`` loads only the game and the report (the issue's cold-start goal):
no server, no mail stack, no transports, and with the game's snapshot current no title
loader (the config's validation still loads pydantic)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.test_snapshot import GID, new_log

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json, sys
from pbem.cli import main
try:
    main(["report", "--config", sys.argv[1], sys.argv[2]])
except SystemExit as exc:
    assert not exc.code, exc.code
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def modules_of_a_report(config: Path) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, str(config), GID], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def test_a_cold_report_loads_no_server_nor_mail_and_from_a_snapshot_no_title_loader(tmp_path: Path) -> None:
    config = tmp_path / "pbem.yaml"
    config.write_text(f"data_dir: {tmp_path / 'data'}\n")
    new_log(tmp_path / "data")
    first = modules_of_a_report(config)  # replays the log and keeps the snapshot
    assert "pbem.ruleset" in first and "pbem.engine.game" in first
    warm = modules_of_a_report(config)
    for name in ("pbem.server", "pbem.poller", "pbem.mail", "pbem.transport", "pbem.ruleset",
                 "pbem.application.mail"):
        assert name not in first - {"pbem.ruleset"} and name not in warm, name
