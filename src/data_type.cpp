#include <refops/data_type.hpp>

namespace refops {

std::string_view name_of(DataType t) {
  switch (t) {
    case DataType::float32: return "FLOAT32";
    case DataType::float16: return "FLOAT16";
    case DataType::uint32: return "UINT32";
    case DataType::uint16: return "UINT16";
    case DataType::uint8: return "UINT8";
    case DataType::int32: return "INT32";
    case DataType::int16: return "INT16";
    case DataType::int8: return "INT8";
    case DataType::float64: return "FLOAT64";
    case DataType::uint64: return "UINT64";
    case DataType::int64: return "INT64";
  }
  return "UNKNOWN";
}

}  // namespace refops
