// How HARDMAX treats NaN (SPEC section 4, our rule).
#pragma once

namespace refops {

// propagate: NaN is larger than every number and the first NaN wins (NumPy, PyTorch, ONNX).
// ignore: NaN never wins; an all-NaN group puts its 1 at the group's first element (DirectML).
enum class NanMode { propagate, ignore };

}  // namespace refops
