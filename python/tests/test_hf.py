"""tts_parity.hf against the protocols generate() uses (transformers is not installed here): a fake
Qwen3-TTS-style generate calls the processors as transformers does — scores = logits[:, -1, :], then each
processor in list order on what the previous returned — and runs the code predictor's q−1 steps for frame
k inside the talker's forward of step k+1. The talker's raw row puts its largest logit on EOS, which the
generation config suppresses: a raw trace must show it (max, argmax), a processed one cannot."""

import gc
import json
import os

import pytest
import torch

from tts_parity import TraceWriter
from tts_parity.hf import HFTraceRecorder, RawScoresRecorder

V, CPV, Q, DIM, FRAMES, EOS = 16, 8, 3, 4, 4, 15
RAW_EOS_LOGIT = 50.0


class SuppressTokens:
    """What generate() builds from `suppress_tokens`: −inf at the given ids."""

    def __call__(self, input_ids, scores):
        scores = scores.clone()
        scores[:, EOS] = -float("inf")
        return scores


class FakeQwenTTS(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.codec_head = torch.nn.Linear(DIM, V)
        with torch.no_grad():
            self.codec_head.bias[EOS] = RAW_EOS_LOGIT
        self.lm_head = torch.nn.ModuleList(torch.nn.Linear(DIM, CPV) for _ in range(Q - 1))
        self.inputs = torch.randn(FRAMES + 1, DIM)

    @torch.no_grad()
    def generate(self, logits_processor=(), code_predictor_processor=()):
        """Returns the [FRAMES, Q] codes; the step after the last frame samples EOS and stops."""
        talker_ids = torch.zeros(1, 0, dtype=torch.long)
        frames = []
        for k in range(FRAMES + 1):
            if k > 0:  # inside forward k+1: the code predictor's inner generate for frame k
                cp_ids = torch.zeros(1, 0, dtype=torch.long)
                for j in range(Q - 1):
                    logits = self.lm_head[j]((self.inputs[k - 1] * (j + 2))[None])  # [batch 1, CPV]
                    scores = logits.clone()
                    for processor in code_predictor_processor:
                        scores = processor(cp_ids, scores)
                    cp_ids = torch.cat([cp_ids, scores.argmax(-1, keepdim=True)], dim=1)
                frames.append(torch.cat([talker_ids[:, -1:], cp_ids], dim=1))
            if k == FRAMES:
                break  # generate() would sample EOS here (the fake stops without a call)
            logits = self.codec_head(self.inputs[k][None, None])  # [batch 1, positions 1, V]
            scores = logits[:, -1, :].clone()
            for processor in logits_processor:
                scores = processor(talker_ids, scores)
            talker_ids = torch.cat([talker_ids, scores.argmax(-1, keepdim=True)], dim=1)
        return torch.cat(frames, dim=0)


def steps_of(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f][1:]


def recorder(tmp_path, name):
    return HFTraceRecorder(
        TraceWriter(tmp_path / name, engine="fake qwen3-tts", q=Q, frame_rate=12.5, sample_rate=24000)
    )


def test_first_in_the_list_records_the_raw_row_special_ids_included(tmp_path):
    model, rec = FakeQwenTTS(), recorder(tmp_path, "first.jsonl")
    codes = model.generate(
        logits_processor=[rec.talker, SuppressTokens()], code_predictor_processor=[rec.code_predictor]
    )
    assert codes.shape == (FRAMES, Q) and EOS not in codes[:, 0].tolist()
    audio = torch.zeros(FRAMES * 1920)  # 24000 / 12.5 = 1920 samples per frame
    audio[1920 + 7] = float("nan")  # in frame 2
    rec.write_steps(codes)
    rec.writer.set_audio(audio)
    rec.writer.close()
    steps = steps_of(tmp_path / "first.jsonl")
    assert [s["nan"]["vocoder"] for s in steps] == [0, 1, 0, 0]
    assert [s["codes"] for s in steps] == codes.tolist()
    for s in steps:
        assert s["logits"]["argmax"] == EOS and s["logits"]["max"] > RAW_EOS_LOGIT - 5  # raw: EOS on top
        assert s["logits"]["top5"][1]["id"] == s["codes"][0]  # the sampled code is the best non-EOS id
        assert [cp["argmax"] for cp in s["codePredictorLogits"]] == s["codes"][1:]  # greedy, unprocessed
        assert (s["nan"]["talker"], s["nan"]["codePredictor"]) == (0, 0)


def test_after_the_suppression_a_processor_sees_processed_scores(tmp_path):
    model, rec = FakeQwenTTS(), recorder(tmp_path, "after.jsonl")
    with pytest.warns(UserWarning, match="-inf"):
        codes = model.generate(
            logits_processor=[SuppressTokens(), rec.talker], code_predictor_processor=[rec.code_predictor]
        )
    rec.write_steps(codes)
    rec.writer.close()
    for s in steps_of(tmp_path / "after.jsonl"):
        assert s["logits"]["argmax"] != EOS and s["logits"]["min"] == "-Infinity" and s["inf"]["talker"] == 1


def test_forward_hooks_on_the_heads_record_the_raw_rows_whatever_generate_does(tmp_path):
    model, by_processor = FakeQwenTTS(), recorder(tmp_path, "processor.jsonl")
    codes = model.generate(
        logits_processor=[by_processor.talker, SuppressTokens()], code_predictor_processor=[by_processor.code_predictor]
    )
    by_processor.write_steps(codes)
    by_processor.writer.close()
    by_hook = recorder(tmp_path, "hook.jsonl")
    handles = [model.codec_head.register_forward_hook(by_hook.talker.forward_hook)]
    handles += [head.register_forward_hook(by_hook.code_predictor.forward_hook) for head in model.lm_head]
    hooked_codes = model.generate(logits_processor=[SuppressTokens()])
    for handle in handles:
        handle.remove()
    by_hook.write_steps(hooked_codes)
    by_hook.writer.close()
    assert steps_of(tmp_path / "hook.jsonl") == steps_of(tmp_path / "processor.jsonl")


@pytest.mark.filterwarnings("ignore:TraceWriter.*was never closed")  # refusals leave the writer open on purpose
def test_write_steps_refuses_codes_that_do_not_match_the_calls(tmp_path):
    model, rec = FakeQwenTTS(), recorder(tmp_path, "bad.jsonl")
    codes = model.generate(logits_processor=[rec.talker], code_predictor_processor=[rec.code_predictor])
    with pytest.raises(
        ValueError, match=r"^HFTraceRecorder.write_steps: codes: expected shape \[frames, 3\] \(q\), found \[4, 2\]"
    ):
        rec.write_steps(codes[:, :2])
    with pytest.raises(
        ValueError, match=r"^HFTraceRecorder.write_steps: codes: 5 frames but the talker recorder saw 4 calls"
    ):
        rec.write_steps(torch.cat([codes, codes[:1]]))
    rec.code_predictor.stats.pop()
    with pytest.raises(ValueError, match=r"4 frames need 8 code-predictor calls \(q-1 per frame\), found 7"):
        rec.write_steps(codes)
    with pytest.raises(
        ValueError, match=r"^RawScoresRecorder \(talker\): scores: expected shape \[batch, vocab\], found \[16\]"
    ):
        rec.talker(None, torch.zeros(V))


@pytest.mark.filterwarnings("ignore:TraceWriter.*was never closed")  # refusals leave the writer open on purpose
def test_a_batch_without_batch_index_is_refused_and_batch_index_picks_the_row(tmp_path):
    rec = recorder(tmp_path, "batch.jsonl")
    scores = torch.stack([torch.arange(V, dtype=torch.float32), -torch.arange(V, dtype=torch.float32)])
    with pytest.raises(
        ValueError, match=r"^RawScoresRecorder \(talker\): scores \[2, 16\] is a batch of 2 rows; pass batch_index="
    ):
        rec.talker(None, scores)
    assert rec.talker.stats == []  # nothing was recorded from row 0
    second = RawScoresRecorder(batch_index=1)
    assert second(None, scores) is scores  # the same tensor, unchanged
    assert torch.equal(scores[1], -torch.arange(V, dtype=torch.float32))
    assert second.stats[0]["argmax"] == 0  # row 1's largest is at id 0 (row 0's would be V-1)
    with pytest.raises(ValueError, match=r"batch_index 2 is outside the batch of 2 rows"):
        RawScoresRecorder(batch_index=2)(None, scores)


def test_a_recorder_behind_a_suppression_warns_once(tmp_path):
    model, rec = FakeQwenTTS(), recorder(tmp_path, "behind.jsonl")
    with pytest.warns(
        UserWarning,
        match=r"RawScoresRecorder \(talker\): call 1's row holds 1 -inf entries.*a logits processor that ran before "
        r"this recorder",
    ) as caught:
        codes = model.generate(
            logits_processor=[SuppressTokens(), rec.talker], code_predictor_processor=[rec.code_predictor]
        )
    assert len([w for w in caught if "-inf" in str(w.message)]) == 1  # once, not once per frame
    rec.write_steps(codes)
    rec.writer.close()


def test_a_failed_write_steps_leaves_no_temporary_once_dropped(tmp_path):
    model, rec = FakeQwenTTS(), recorder(tmp_path, "failed.jsonl")
    codes = model.generate(logits_processor=[rec.talker], code_predictor_processor=[rec.code_predictor])
    with pytest.raises(ValueError, match="5 frames but the talker recorder saw 4 calls"):
        rec.write_steps(torch.cat([codes, codes[:1]]))
    with pytest.warns(UserWarning, match=r"failed.jsonl\) was never closed: it held no steps, so nothing was kept"):
        del rec
        gc.collect()
    assert os.listdir(tmp_path) == []
