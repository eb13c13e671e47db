#!/usr/bin/env python3
"""The peers of refops on issue 10's shapes: ONNX Runtime, OpenVINO and refops, one thread, GB/s.

Not part of the build. To run it (any Python 3.9+; refops's own Python module is optional and
adds its column, docs/python.md):

    python3 -m venv /tmp/peers && /tmp/peers/bin/pip install onnxruntime openvino onnx numpy
    /tmp/peers/bin/pip install .                    # optional, from the repository's root
    /tmp/peers/bin/python bench/peers.py            # every case, every runtime
    /tmp/peers/bin/python bench/peers.py --only one_hot --runtime ort

Each case is one ONNX model (opset 14: OneHot, EyeLike, Trilu, Hardmax-13) run by ONNX Runtime
(intra_op_num_threads=1) and by OpenVINO's CPU plugin reading the same model (one inference
thread, one stream, FLOAT32 precision), and the same operator through refops's Python module
(threads=1). All three write into one output buffer per case, allocated and touched before any
timing (ONNX Runtime through IO binding, OpenVINO through a shared-memory output tensor, refops
through out=), so page faults and huge pages treat them alike. GB/s counts bytes written plus
bytes read as refops's benchmark does (bench/bench_main.cpp): EyeLike's input only gives the
shape and is not counted, and Trilu counts as read only the elements it keeps (75% of a
4096 x 8192 input). Each cell is the median of the runs within --seconds after one warm-up run
(refops's benchmark reports medians too), and in parentheses the best of them. The Python
call adds about a microsecond to refops's figures, nothing at these sizes. The machine's
memory bandwidth is what all of them are bound by, so compare columns of one run.
"""
import argparse
import statistics
import time
from typing import Callable, NamedTuple

import numpy as np
import onnx
from onnx import TensorProto, helper

MiB = 1 << 20


class Case(NamedTuple):
    name: str
    model: bytes  # the ONNX model the peers run
    feeds: dict  # its inputs
    traffic: int  # bytes written + bytes read, as refops's benchmark counts them
    out_shape: tuple
    call: Callable  # call(refops_module, out): the same operator through refops's Python module


def model(node, inputs, output, initializers=()):
    graph = helper.make_graph([node], "case", inputs, [output], initializer=list(initializers))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m.SerializeToString()


def tensor(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def one_hot(name, rows, depth, axis):
    """refops bench/one_hot.cpp: indices uniform in [0, depth), OffValue 0, OnValue 1."""
    rng = np.random.default_rng(20261121)
    indices = rng.integers(0, depth, size=(rows,), dtype=np.int64)
    out_shape = [rows, depth] if axis in (1, -1) else [depth, rows]
    node = helper.make_node("OneHot", ["indices", "depth", "values"], ["out"], axis=axis)
    inits = [helper.make_tensor("depth", TensorProto.INT64, [], [depth]),
             helper.make_tensor("values", TensorProto.FLOAT, [2], [0.0, 1.0])]
    m = model(node, [tensor("indices", TensorProto.INT64, [rows])], tensor("out", TensorProto.FLOAT, out_shape), inits)
    # DirectML's ONE_HOT: indices of the output's rank with size 1 along the axis (UINT32 here;
    # the bytes read are counted as ONNX's INT64 for all three, as refops's benchmark does).
    refops_indices = indices.astype(np.uint32).reshape((rows, 1) if axis in (1, -1) else (1, rows))
    values = np.array([[0.0, 1.0]], np.float32)
    refops_axis = 1 if axis in (1, -1) else 0
    call = lambda refops, out: refops.one_hot(refops_indices, values, axis=refops_axis, depth=depth, out=out, threads=1)
    return Case(name, m, {"indices": indices}, rows * depth * 4 + indices.nbytes, tuple(out_shape), call)


def eye_like(name, rows, cols):
    node = helper.make_node("EyeLike", ["x"], ["out"], k=0)
    m = model(node, [tensor("x", TensorProto.FLOAT, [rows, cols])], tensor("out", TensorProto.FLOAT, [rows, cols]))
    call = lambda refops, out: refops.diagonal_matrix((rows, cols), offset=0, value=1.0, dtype=np.float32, out=out,
                                                      threads=1)
    return Case(name, m, {"x": np.zeros((rows, cols), np.float32)}, rows * cols * 4, (rows, cols), call)


def trilu(name, rows, cols):
    """refops's DIAGONAL_MATRIX1 with Begin INT32_MIN, End 1, Value 0 keeps x - y >= 1: Trilu
    upper with k = 1."""
    node = helper.make_node("Trilu", ["x", "k"], ["out"], upper=1)
    inits = [helper.make_tensor("k", TensorProto.INT64, [], [1])]
    m = model(node, [tensor("x", TensorProto.FLOAT, [rows, cols])], tensor("out", TensorProto.FLOAT, [rows, cols]),
              inits)
    x = np.full((rows, cols), 1.5, np.float32)
    copied = sum(max(cols - (y + 1), 0) for y in range(rows))  # what refops's benchmark counts as read
    call = lambda refops, out: refops.diagonal_matrix1(np.float32(0), -2**31, 1, input=x, out=out, threads=1)
    return Case(name, m, {"x": x}, x.nbytes + 4 * copied, (rows, cols), call)


def hardmax(name, rows, cols, axis):
    node = helper.make_node("Hardmax", ["x"], ["out"], axis=axis)
    m = model(node, [tensor("x", TensorProto.FLOAT, [rows, cols])], tensor("out", TensorProto.FLOAT, [rows, cols]))
    x = np.random.default_rng(2463534242).uniform(-1000, 1000, size=(rows, cols)).astype(np.float32)
    call = lambda refops, out: refops.hardmax(x, axes=(axis % 2,), out=out, threads=1)
    return Case(name, m, {"x": x}, 2 * x.nbytes, (rows, cols), call)


# (name as in refops's benchmark, the model and its inputs): built only when the case runs.
CASES = [
    ("one_hot/f32_65536x1024_axis_last", lambda n: one_hot(n, 65536, 1024, -1)),
    ("one_hot/f32_4194304x16_depth16", lambda n: one_hot(n, 4194304, 16, -1)),
    ("one_hot/f32_16x4194304_axis0", lambda n: one_hot(n, 4194304, 16, 0)),
    ("diagonal_matrix/f32_8192x8192 (EyeLike)", lambda n: eye_like(n, 8192, 8192)),
    ("diagonal_matrix1/f32_4096x8192_trilu_input (Trilu)", lambda n: trilu(n, 4096, 8192)),
    ("hardmax/f32_65536x1024_axis_last", lambda n: hardmax(n, 65536, 1024, -1)),
    ("hardmax/f32_65536x1024_axis_0", lambda n: hardmax(n, 65536, 1024, 0)),
    ("hardmax/f32_4194304x16_rows_of_16", lambda n: hardmax(n, 4194304, 16, -1)),
]


def run_seconds(run, seconds):
    """(median, best) of the run's times within `seconds`, after one warm-up run."""
    run()  # warm-up: first-touch of the output, plan caches
    times, start = [], time.perf_counter()
    while True:
        t = time.perf_counter()
        run()
        times.append(time.perf_counter() - t)
        if time.perf_counter() - start > seconds:
            return statistics.median(times), min(times)


def ort_runner(model_bytes, feeds, out, call):
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    session = ort.InferenceSession(model_bytes, options, providers=["CPUExecutionProvider"])
    binding = session.io_binding()
    for name, array in feeds.items():
        binding.bind_cpu_input(name, array)
    binding.bind_output("out", "cpu", 0, out.dtype, list(out.shape), out.ctypes.data)
    return lambda: session.run_with_iobinding(binding)


def ov_runner(model_bytes, feeds, out, call):
    import openvino as ov
    core = ov.Core()
    compiled = core.compile_model(core.read_model(model_bytes), "CPU",
                                  {"INFERENCE_NUM_THREADS": 1, "NUM_STREAMS": 1, "INFERENCE_PRECISION_HINT": "f32"})
    request = compiled.create_infer_request()
    request.set_output_tensor(ov.Tensor(out, shared_memory=True))
    return lambda: request.infer(feeds)


def refops_runner(model_bytes, feeds, out, call):
    import refops
    return lambda: call(refops, out)


def versions():
    out = []
    try:
        import onnxruntime
        out.append("onnxruntime " + onnxruntime.__version__)
    except ImportError:
        pass
    try:
        import openvino
        out.append("openvino " + openvino.__version__)
    except ImportError:
        pass
    try:
        import refops
        out.append("refops " + refops.__version__)
    except (ImportError, AttributeError):
        pass
    return ", ".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="run the cases whose name contains this")
    parser.add_argument("--runtime", choices=["ort", "ov", "refops", "all"], default="all")
    parser.add_argument("--seconds", type=float, default=1.0, help="timing budget per case and runtime")
    args = parser.parse_args()
    runners = {"ort": ("ONNX Runtime", ort_runner), "ov": ("OpenVINO", ov_runner), "refops": ("refops", refops_runner)}
    chosen = list(runners) if args.runtime == "all" else [args.runtime]
    print(f"# {versions()}; single thread; GB/s = (bytes written + bytes read) / time: median (best) of the runs")
    # The machine's state: refops's benchmark treats a 256 MiB memset(0) below 10 GB/s as loaded.
    buffer = np.ones(64 * MiB, np.float32)
    print(f"# numpy fill(0) of 256 MiB (memset): {buffer.nbytes / run_seconds(lambda: buffer.fill(0), 1.0)[0] / 1e9:.2f} GB/s\n")
    del buffer
    print("| case | " + " | ".join(runners[r][0] for r in chosen) + " |")
    print("|---|" + "---:|" * len(chosen))
    for case_name, make in CASES:
        if args.only not in case_name:
            continue
        case = make(case_name)
        # One output buffer for every runtime, touched before any timing: each writes the same
        # pre-faulted pages (their own allocations would differ in page faults and huge pages).
        out = np.full(case.out_shape, 7.0, np.float32)
        cells = []
        for r in chosen:
            try:
                median, best = run_seconds(runners[r][1](case.model, case.feeds, out, case.call), args.seconds)
                cells.append(f"{case.traffic / median / 1e9:.2f} ({case.traffic / best / 1e9:.2f})")
            except Exception as error:  # a runtime without the operator or the shape
                cells.append("failed: " + str(error).splitlines()[0][:60])
        print(f"| {case.name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
