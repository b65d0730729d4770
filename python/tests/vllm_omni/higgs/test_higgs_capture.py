"""capture_check on the installed vLLM-Omni 0.30.0 HiggsAudioV3Talker decode path equals the list documented in
docs/vllm-omni.md (Higgs-Audio-v3, Capture findings): seed 001's boolean mask at its line, the branch the external
decode graph takes without query_start_loc clean, and seed 000's suspected state reads listed as state written
outside the step (sample() between steps) and read inside it."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[4]
TALKER_FILE = "vllm_omni/model_executor/models/higgs_audio_v3/higgs_audio_v3_talker.py"


def higgs_section() -> str:
    text = (REPO_ROOT / "docs" / "vllm-omni.md").read_text()
    return text[text.index("## Higgs-Audio-v3") :]


def documented_table(title: str) -> list[tuple[str, int, str]]:
    """Rows `| first | :LINE | `code` |` of the table under the `### {title}` heading of the Higgs section."""
    section = higgs_section()
    start = section.index(f"### {title}")
    end = section.find("\n### ", start + 1)
    rows = re.findall(r"^\| `?([^|`]+?)`? \| :(\d+) \| `(.+)` \|$", section[start : end if end > 0 else None], re.M)
    return [(first.strip(), int(line), code) for first, line, code in rows]


def in_talker_file(filename: str) -> bool:
    return filename.replace("\\", "/").endswith(TALKER_FILE)


def test_the_talker_was_built_as_the_low_latency_profile_builds_it(higgs_capture):
    talker = higgs_capture["talker"]
    assert talker._use_external_decode_cudagraph is True
    assert talker.config.enable_mlp_cudagraph is False
    assert in_talker_file(inspect.getsourcefile(type(talker)))


def test_the_findings_on_the_installed_file_equal_the_documented_list(higgs_capture):
    report = higgs_capture["masked"]
    found = [(f.rule, f.lineno, f.code) for f in report.findings]
    assert all(in_talker_file(f.filename) for f in report.findings), [f.where for f in report.findings]
    assert found == documented_table("Capture findings")
    # seed 001's line among them, as the seed quotes it
    assert ("data-dependent-shape", "return req_rows[decode_mask], starts[decode_mask]") in {
        (rule, code) for rule, _, code in found
    }


def test_the_branch_without_query_start_loc_is_clean(higgs_capture):
    report = higgs_capture["fixed"]
    assert report.ok, str(report)
    source, first = inspect.getsourcelines(type(higgs_capture["talker"])._decode_request_token_positions)
    fixed = [first + i for i, line in enumerate(source) if "return rows, rows" in line]
    assert len(fixed) == 1  # the external-decode-graph branch exists in the installed file


def test_seed_000s_state_reads_are_listed_as_written_outside_the_step(higgs_capture):
    for name, steps in (("masked", ("step 3",)), ("fixed", ("step 5",))):
        states = higgs_capture[name].state_written_outside
        assert all(in_talker_file(state.filename) for state in states)
        listed = [(state.label.removeprefix("argument self.talker."), state.lineno, state.code) for state in states]
        assert listed == documented_table("State written outside the step"), name
        assert all(state.before_steps == steps for state in states)


def test_the_decode_steps_produced_the_delay_pattern(higgs_capture):
    """Codebook k is BOC (1024) until step k + 1: the probe ran real steps of the real sampler."""
    for request in higgs_capture["codes"]:
        for step, codes in enumerate(request):
            assert all((code == 1024) == (k > step) for k, code in enumerate(codes)), (step, codes)
