"""StaticBuffers on CPU: the graph-safe contract without a GPU. A CUDA graph replay re-runs the captured
kernels on the same memory; here a "replay" re-runs the same callable, whose `write` calls copy into
the same buffers, which is what the captured copy kernels do. (Capture itself needs a GPU.)"""

import numpy as np
import pytest
import torch

from tts_parity.static_buffers import StaticBuffers


def test_write_copies_into_one_persistent_buffer_per_name():
    buffers = StaticBuffers()
    first = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    buffer = buffers.write("logits", first)
    assert buffer is not first and buffer.data_ptr() != first.data_ptr()
    first.add_(100)  # the source changing afterwards does not change the recorded copy
    np.testing.assert_array_equal(buffers.read()["logits"], np.arange(6, dtype=np.float32).reshape(2, 3))
    again = buffers.write("logits", torch.full((2, 3), 7.0))
    assert again.data_ptr() == buffer.data_ptr()  # same memory: what a captured graph keeps writing
    np.testing.assert_array_equal(buffers.read()["logits"], np.full((2, 3), 7.0, dtype=np.float32))


def test_read_holds_each_replays_values_and_is_independent_of_later_replays():
    state = torch.zeros(4)
    buffers = StaticBuffers()

    def step():  # the captured step: updates its state in place and records a derived tensor
        state.add_(1.5)
        buffers.write("hidden", state * 2)
        buffers.write("code", state.argmax().reshape(1))

    read_back = []
    for _ in range(3):
        step()
        read_back.append(buffers.read())
    assert [f["hidden"].tolist() for f in read_back] == [[3.0] * 4, [6.0] * 4, [9.0] * 4]
    assert read_back[0]["code"].dtype == np.int64
    assert buffers.names() == ["hidden", "code"]
    assert set(buffers.read(["code"])) == {"code"}


def test_a_different_shape_or_dtype_under_a_name_is_refused_naming_both():
    buffers = StaticBuffers()
    buffers.write("logits", torch.zeros(3))
    with pytest.raises(
        ValueError, match=r'write\("logits"\): the buffer is \[3\] float32 on cpu, found \[4\] float32 on cpu'
    ):
        buffers.write("logits", torch.zeros(4))
    with pytest.raises(ValueError, match=r"found \[3\] float16"):
        buffers.write("logits", torch.zeros(3, dtype=torch.float16))
    buffers.clear()
    assert buffers.write("logits", torch.zeros(4)).shape == (4,)
    with pytest.raises(TypeError, match=r"expected a torch\.Tensor, found list"):
        buffers.write("codes", [1, 2])


def test_bfloat16_and_grad_tensors_read_back_exactly():
    buffers = StaticBuffers()
    values = torch.tensor([1.0, -2.5, 3.140625], dtype=torch.bfloat16)
    buffers.write("b", values)
    weight = torch.ones(2, requires_grad=True)
    buffers.write("g", weight * 3)
    out = buffers.read()
    assert out["b"].dtype == np.float32 and out["b"].tolist() == [1.0, -2.5, 3.140625]
    assert out["g"].tolist() == [3.0, 3.0]
