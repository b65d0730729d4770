"""The PyTorch-user flow of issue 30 with the 0.2 API: a two-path decode step (eager, and the static-buffer step a
CUDA graph would capture), both traced with the same recorders; a bug planted in one path; compare-trace localises
it. Lines marked `# +` are the instrumentation a user adds to their own loop (tests/test_user_flow.py runs it)."""

import torch

from tts_parity import ModuleRecorder, StepRecorder, TraceWriter  # +

Q, DIM, VOCAB, STEPS, BUG_STEP = 4, 32, 64, 8, 5


class Talker(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(VOCAB, DIM)
        self.mlp = torch.nn.Sequential(torch.nn.Linear(DIM, 2 * DIM), torch.nn.GELU(), torch.nn.Linear(2 * DIM, DIM))
        self.head = torch.nn.Linear(DIM, VOCAB)
        self.cp_heads = torch.nn.ModuleList(torch.nn.Linear(DIM, VOCAB) for _ in range(Q - 1))

    def forward(self, codes, state):
        x = state + self.mlp(self.embed(codes).sum(0))
        return self.head(x), torch.stack([head(x) for head in self.cp_heads]), x


def run(name, static, bug):
    torch.manual_seed(0)
    model = Talker().eval()
    codes, state = torch.zeros(Q, dtype=torch.long), torch.zeros(DIM)
    trace, sidecar = f"{name}.jsonl", f"{name}.modules.safetensors"  # +
    tw = TraceWriter(trace, engine=name, q=Q, frame_rate=12.5, sample_rate=24000, modules=sidecar, force=True)  # +
    steps = StepRecorder(tw)  # +
    modules = ModuleRecorder(model, sidecar, r"^(embed|mlp|head)$", force=True)  # +
    with torch.no_grad(), tw, steps, modules:  # +

        def step():
            logits, rows, h = model(codes, state)
            new = torch.cat([logits.argmax().reshape(1), rows.argmax(-1)])
            steps.log(logits, new, code_predictor_logits=rows, hidden=h)  # +
            state.copy_(h) if static else None
            codes.copy_(new)
            return h

        for n in range(1, STEPS + 1):
            if bug and n == BUG_STEP:
                model.mlp[2].bias.add_(0.05)  # the planted bug: the MLP's output bias drifts from step 5
            with steps.step(n), modules.step(n):  # +
                h = step()
            if not static:
                state = h


run("eager", static=False, bug=False)
run("graph", static=True, bug=True)
