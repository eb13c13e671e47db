// The .npy reader and writer (tools/model/npy.hpp): headers NumPy writes, every refops type,
// 1.0 and 2.0 headers, big-endian data, and the refusals.
#include <string>

#include "model/npy.hpp"
#include "model_test_support.hpp"
#include "support/catch.hpp"

using namespace refops;
using namespace refops::model;

namespace {

std::string v1(const std::string& dict, const std::string& data = "") {
  std::string header = dict;
  const std::size_t total = (10 + header.size() + 1 + 63) / 64 * 64;
  header.append(total - 10 - header.size() - 1, ' ');
  header += '\n';
  return std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size() & 0xFF) +
         static_cast<char>(header.size() >> 8) + header + data;
}

NpyHeader parse(const std::string& file) { return parse_npy_header(file, file.size()); }

}  // namespace

TEST_CASE("npy: the header NumPy writes for float32 (3, 4)", "[npy]") {
  const std::uint64_t shape[] = {3, 4};
  const std::string h = npy_header(DataType::float32, shape);
  CHECK(h == v1("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }"));
  CHECK(h.size() % 64 == 0);
  const std::uint64_t one[] = {5};
  CHECK(npy_header(DataType::uint8, one) == v1("{'descr': '|u1', 'fortran_order': False, 'shape': (5,), }"));
  CHECK(npy_header(DataType::int64, {}) == v1("{'descr': '<i8', 'fortran_order': False, 'shape': (), }"));
}

TEST_CASE("npy: every refops type round-trips through a header", "[npy]") {
  for (DataType t : all_data_types) {
    INFO(name_of(t));
    const std::uint64_t shape[] = {2, 3};
    const std::string file = npy_header(t, shape) + std::string(6 * size_of(t), '\x7');
    const NpyHeader h = parse(file);
    CHECK(h.type == t);
    CHECK_FALSE(h.big_endian);
    CHECK(h.shape == std::vector<std::uint64_t>{2, 3});
    CHECK(h.data_offset == file.size() - 6 * size_of(t));
    CHECK(h.data_bytes == 6 * size_of(t));
  }
}

TEST_CASE("npy: float16 '<f2', bool as UINT8, big-endian, native order, Python 2 longs", "[npy]") {
  CHECK(parse(v1("{'descr': '<f2', 'fortran_order': False, 'shape': (2,), }", "abcd")).type == DataType::float16);
  CHECK(parse(v1("{'descr': '|b1', 'fortran_order': False, 'shape': (1,), }", "a")).type == DataType::uint8);
  const NpyHeader be = parse(v1("{'descr': '>i4', 'fortran_order': False, 'shape': (1,), }", "abcd"));
  CHECK(be.type == DataType::int32);
  CHECK(be.big_endian);
  CHECK_FALSE(parse(v1("{'descr': '>u1', 'fortran_order': False, 'shape': (1,), }", "a")).big_endian);
  CHECK(parse(v1("{'shape': (2L,), 'descr': '=u2', \"fortran_order\": False}", "abcd")).type == DataType::uint16);
  CHECK(parse(v1("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", "12345678")).data_bytes == 8);
}

TEST_CASE("npy: version 2.0 and 3.0 headers", "[npy]") {
  std::string dict = "{'descr': '<i2', 'fortran_order': False, 'shape': (1,), }";
  dict.append(64 - (12 + dict.size() + 1) % 64, ' ');
  dict += '\n';
  for (char version : {'\x02', '\x03'}) {
    std::string file = std::string("\x93NUMPY", 6) + version + '\0';
    const auto n = static_cast<std::uint32_t>(dict.size());
    for (int i = 0; i < 4; ++i) file += static_cast<char>((n >> (8 * i)) & 0xFF);
    file += dict + "xy";
    const NpyHeader h = parse(file);
    CHECK(h.type == DataType::int16);
    CHECK(h.data_offset == 12 + dict.size());
  }
  // The writer switches to 2.0 only when a 1.0 header cannot hold the dictionary.
  std::vector<std::uint64_t> many(8, 1);
  CHECK(npy_header(DataType::float32, many)[6] == '\x01');
}

TEST_CASE("npy: refusals say why", "[npy]") {
  auto refused = [](const std::string& file, const std::string& words) {
    INFO(file);
    try {
      parse(file);
      FAIL("accepted");
    } catch (const NpyError& e) {
      CHECK_THAT(e.what(), Catch::Matchers::Contains(words));
    }
  };
  refused(v1("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", std::string(16, 'x')), "Fortran order");
  refused(v1("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", "12345678"), "Python objects");
  refused(v1("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", "1234"), "not one refops-run reads");
  refused(v1("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", "12345678"), "not one of refops's types");
  refused(v1("{'descr': '<U3', 'fortran_order': False, 'shape': (1,), }", "123456789012"), "not one of refops's types");
  refused(v1("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", "12345678"), "holds 8 data bytes; its shape needs 12");
  refused(v1("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }"), "2^64");
  refused(v1("{'descr': '<f4', 'shape': (1,), }", "1234"), "no 'fortran_order'");
  refused("PK\x03\x04 this is a zip", "not a .npy file");
  refused(std::string("\x93NUMPY\x04\x00\x10\x00", 10), "version 4");
  refused(v1("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }").substr(0, 40), "ends inside its header");
}

TEST_CASE("npy: byte_swap reverses each element", "[npy]") {
  std::vector<std::byte> data{std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4}, std::byte{5}, std::byte{6}};
  byte_swap(data, 2);
  CHECK(data == std::vector<std::byte>{std::byte{2}, std::byte{1}, std::byte{4}, std::byte{3}, std::byte{6}, std::byte{5}});
}
