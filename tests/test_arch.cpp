// CPU detection, the dispatch order and forcing a path.
#include <algorithm>
#include <bit>
#include <cstdlib>
#include <string>
#include <vector>

#include <refops/kernels/cache_info.hpp>
#include <refops/kernels/simd.hpp>
#include <refops/kernels/store_calibration.hpp>

#include <refops/refops.hpp>

#include "arch/probe.hpp"
#include "dispatch/cpu_features.hpp"
#include "support/archs.hpp"
#include "support/catch.hpp"

using namespace refops;

TEST_CASE("available archs are best first and end with scalar", "[arch]") {
  const auto archs = available_archs();
  REQUIRE(!archs.empty());
  CHECK(archs.back() == Arch::scalar);
  CHECK(std::is_sorted(archs.begin(), archs.end(), [](Arch a, Arch b) {
    return static_cast<int>(a) > static_cast<int>(b);
  }));
  std::string names;
  for (Arch a : archs) names += std::string(name_of(a)) + " ";
  WARN("available archs: " << names);
}

TEST_CASE("the paths offered are the instruction sets this build compiled that this CPU has", "[arch]") {
  // REFOPS_ISAS may leave instruction sets out (cmake/refops_arch.cmake): dispatch must never
  // offer one whose kernels are not there, and must offer every one that is and can run here.
  const std::string built = "," REFOPS_TEST_BUILT_ISAS ",";
  const auto& cpu = detail::host_cpu_features();
  const bool capped = std::getenv("REFOPS_ARCH") && *std::getenv("REFOPS_ARCH");
  const auto archs = available_archs();
  INFO("built: " << REFOPS_TEST_BUILT_ISAS);
  CHECK(built.find(",scalar,") != std::string::npos);
  for (Arch a : {Arch::scalar, Arch::sse2, Arch::avx2, Arch::avx512, Arch::neon}) {
    const bool is_built = built.find("," + std::string(name_of(a)) + ",") != std::string::npos;
    const bool runs_here = a == Arch::scalar || (a == Arch::sse2 && cpu.sse2) || (a == Arch::avx2 && cpu.avx2) ||
                           (a == Arch::avx512 && cpu.avx512) || (a == Arch::neon && cpu.neon);
    const bool offered = std::find(archs.begin(), archs.end(), a) != archs.end();
    INFO("arch: " << name_of(a));
    if (!is_built || !runs_here) CHECK_FALSE(offered);
    else if (!capped) CHECK(offered);
  }
}

#if defined(__x86_64__)
TEST_CASE("our CPUID agrees with the compiler's view of this CPU", "[arch]") {
  const auto& cpu = detail::host_cpu_features();
  __builtin_cpu_init();
  CHECK(cpu.sse2 == static_cast<bool>(__builtin_cpu_supports("sse2")));
  CHECK(cpu.avx2 == (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")));
  CHECK(cpu.avx512 == (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                       __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
                       __builtin_cpu_supports("avx512cd")));
}
#endif

TEST_CASE("forcing an arch runs the code compiled for it", "[arch]") {
  test::for_each_arch([](Arch arch) {
    const detail::ArchProbe p = detail::probe_arch(test::on(arch));
    const std::string compiled = p.compiled_for;
    switch (arch) {
      case Arch::scalar: CHECK(compiled == "scalar"); CHECK(p.vector_bytes == 0); break;
      case Arch::sse2: CHECK(compiled == "sse2"); CHECK(p.vector_bytes == 16); break;
      case Arch::avx2: CHECK(compiled == "avx2"); CHECK(p.vector_bytes == 32); break;
      case Arch::avx512: CHECK(compiled == "avx512bw"); CHECK(p.vector_bytes == 64); break;
      case Arch::neon: CHECK(compiled == "arm64+neon"); CHECK(p.vector_bytes == 16); break;
    }
  });
  CHECK(std::string(detail::probe_arch({}).compiled_for) ==
        std::string(detail::probe_arch(test::on(available_archs().front())).compiled_for));
}

TEST_CASE("forcing an arch this machine lacks is an Error naming ExecuteOptions.arch", "[arch]") {
  const auto archs = available_archs();
  for (Arch a : {Arch::scalar, Arch::sse2, Arch::avx2, Arch::avx512, Arch::neon}) {
    if (std::find(archs.begin(), archs.end(), a) != archs.end()) continue;
    INFO("arch: " << name_of(a));
    try {
      detail::probe_arch(test::on(a));
      FAIL("expected Error");
    } catch (const Error& e) {
      REQUIRE(e.diagnostics().size() == 1);
      CHECK(e.diagnostics()[0].field == "ExecuteOptions.arch");
      CHECK_THAT(e.diagnostics()[0].message, Catch::Matchers::Contains(std::string(name_of(a))));
    }
  }
}

#if defined(REFOPS_BUILD_NEON)
// The aarch64 preset runs under qemu: prove the NEON path is there, so the for_each_arch tests
// really compare NEON with scalar (unless REFOPS_ARCH caps it on purpose).
TEST_CASE("an Arm build offers the NEON path first", "[arch]") {
  if (const char* cap = std::getenv("REFOPS_ARCH"); cap && *cap) return;
  CHECK(available_archs().front() == Arch::neon);
}
#endif

TEST_CASE("a StoreStrategy out of range is an Error naming ExecuteOptions.stores, nothing written", "[arch]") {
  const TensorDesc out_desc{DataType::float32, {4, 4}, {}, 0};
  std::vector<std::byte> output(64, std::byte{0xA5});
  ExecuteOptions options;
  options.stores = static_cast<StoreStrategy>(7);
  try {
    execute(DiagonalMatrixDesc{out_desc, 0, 1.0f}, std::span(output), options);
    FAIL("expected Error");
  } catch (const Error& e) {
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(e.diagnostics()[0].field == "ExecuteOptions.stores");
    CHECK_THAT(e.diagnostics()[0].message, Catch::Matchers::Contains("found 7"));
  }
  CHECK(std::all_of(output.begin(), output.end(), [](std::byte b) { return b == std::byte{0xA5}; }));
}

TEST_CASE("a bad StoreStrategy is reported with the description's errors, in one Error", "[arch]") {
  // Offset is fine, but the output has a rank of 1 (DIAGONAL_MATRIX needs 2 or more).
  const TensorDesc out_desc{DataType::float32, {16}, {}, 0};
  std::vector<std::byte> output(64, std::byte{0xA5});
  ExecuteOptions options;
  options.stores = static_cast<StoreStrategy>(3);
  try {
    execute(DiagonalMatrixDesc{out_desc, 0, 1.0f}, std::span(output), options);
    FAIL("expected Error");
  } catch (const Error& e) {
    REQUIRE(e.diagnostics().size() == 2);
    CHECK(e.diagnostics()[0].field.rfind("OutputTensor", 0) == 0);
    CHECK(e.diagnostics()[1].field == "ExecuteOptions.stores");
    CHECK(e.diagnostics()[1].message == "expected plain, stream or rep (or no value: chosen per call), found 3");
  }
  CHECK(std::all_of(output.begin(), output.end(), [](std::byte b) { return b == std::byte{0xA5}; }));
}

TEST_CASE("the cache topology is read from the hardware and is consistent", "[arch]") {
  CHECK(simd::cache_detail::count_cpu_list("0") == 1);
  CHECK(simd::cache_detail::count_cpu_list("0-3,8,10-11") == 7);
  CHECK(simd::cache_detail::parse_size("32768K") == std::size_t{32} << 20);
  const simd::CacheTopology& t = simd::cache_topology();
  INFO("source " << t.source << ", LLC " << t.llc_bytes << " shared by " << t.llc_sharing_cpus);
  CHECK(t.llc_bytes >= t.l2_bytes);
  CHECK(t.llc_per_cpu_bytes * t.llc_sharing_cpus <= t.llc_bytes);
  // Never larger than what Linux says (the check glibc's sysconf fails on AMD KVM guests).
  const simd::cache_detail::Found sysfs = simd::cache_detail::from_sysfs();
  if (sysfs.llc != 0) CHECK(t.llc_bytes <= sysfs.llc);
}

TEST_CASE("the streaming threshold is the LLC, or the measured size below it where plain stores still won", "[arch]") {
  constexpr std::size_t mib = std::size_t{1} << 20;
  const std::size_t trusted = simd::cache_detail::trusted_llc_bytes;
  // An LLC of at most twice the trusted size is taken as it is: nothing is written to measure.
  CHECK(simd::cache_detail::measure_reach(32 * mib) == 32 * mib);
  CHECK(simd::cache_detail::measure_reach(48 * mib) == 48 * mib);
  CHECK(simd::cache_detail::measure_reach(64 * mib) == 64 * mib);
  CHECK(simd::cache_detail::measure_reach(mib) == mib);
  const simd::StreamingThreshold& t = simd::streaming_threshold();
  const std::size_t llc = simd::last_level_cache_bytes();
  INFO("threshold " << t.bytes << " (" << t.source << "), LLC " << llc);
  if (std::string(t.source) != "REFOPS_STREAMING_THRESHOLD") {
    CHECK(t.bytes <= llc);
    CHECK(t.bytes >= std::min(llc, trusted));
    CHECK((std::string(t.source) == "the LLC") == (t.bytes == llc));
    if (llc <= 2 * trusted) CHECK(t.bytes == llc);
    // Measured sizes are the trusted size times a power of two.
    if (std::string(t.source) == "measured") CHECK(std::has_single_bit(t.bytes / trusted));
  }
  // exceeds_cache answers without measuring where it can, and always as the threshold does.
  for (std::size_t bytes : {std::size_t{0}, mib, trusted - 1, trusted, t.bytes - 1, t.bytes, t.bytes + 1, llc - 1, llc,
                            2 * llc}) {
    INFO("bytes " << bytes);
    CHECK(simd::exceeds_cache(bytes) == (bytes >= t.bytes));
  }
}

TEST_CASE("auto stores pick rep or stream for large sparse outputs by the predicted time", "[arch]") {
  constexpr std::size_t mib = std::size_t{1} << 20;
  // 30 GB/s memset, 20 GB/s streaming: rep, however sparse (issue 10's first host).
  simd::StoreRates memset_faster{30, 20, 15, 64 * mib};
  CHECK_FALSE(simd::stream_beats_rep(memset_faster, 256 * mib, 4096));
  CHECK_FALSE(simd::stream_beats_rep(memset_faster, 256 * mib, ~std::size_t{0}));
  // Equal rates: the patches decide (one per 4 KiB costs 15 ns against 4096 / 30 = 137 ns of
  // memset), so stream; with no patches rep stays.
  simd::StoreRates equal{30, 30, 15, 64 * mib};
  CHECK(simd::stream_beats_rep(equal, 256 * mib, 4096));
  CHECK_FALSE(simd::stream_beats_rep(equal, 256 * mib, ~std::size_t{0}));
  // Streaming 10% faster: stream even for an identity matrix's one element per row.
  simd::StoreRates stream_faster{30, 33, 15, 64 * mib};
  CHECK(simd::stream_beats_rep(stream_faster, 256 * mib, 32768));
  // Nothing measured (no streaming stores, or no memory for the buffer): rep.
  CHECK_FALSE(simd::stream_beats_rep(simd::StoreRates{}, 256 * mib, 4096));
}

TEST_CASE("every Arch with streaming stores measured its store rates once, plausibly", "[arch]") {
  for (Arch arch : available_archs()) {
    INFO(name_of(arch));
    const detail::StoreRatesProbe first = detail::store_rates_of(test::on(arch));
    const detail::StoreRatesProbe again = detail::store_rates_of(test::on(arch));
    CHECK(again.rep_bytes_per_ns == first.rep_bytes_per_ns);  // measured once per process
    if (detail::probe_arch(test::on(arch)).vector_bytes == 0 || first.buffer_bytes == 0) continue;
    CHECK(first.buffer_bytes >= (std::size_t{16} << 20));
    // Between 0.1 and 1000 GB/s, and a patch between 0.1 ns and 10 us: a unit slip (seconds
    // for nanoseconds, bits for bytes) lands outside.
    for (double rate : {first.rep_bytes_per_ns, first.stream_bytes_per_ns}) {
      CHECK(rate > 0.1);
      CHECK(rate < 1000);
    }
    CHECK(first.patch_ns > 0.1);
    CHECK(first.patch_ns < 10000);
    // The copies off the vector grid, measured where vectors are wider than 16 bytes (the
    // 16-byte pieces are then not whole vectors).
    if (detail::probe_arch(test::on(arch)).vector_bytes > 16) {
      for (double rate : {first.piece_copy_bytes_per_ns, first.plain_copy_bytes_per_ns}) {
        CHECK(rate > 0.1);
        CHECK(rate < 1000);
      }
      CHECK(first.copy_rounds >= 1);
      CHECK(first.copy_rounds <= simd::calibration_detail::max_calibration_rounds);
    } else {
      CHECK(first.piece_copy_bytes_per_ns == 0);
      CHECK(first.copy_rounds == 0);
    }
    // One round, more only while a ratio is near a rule's bar, at most the cap.
    CHECK(first.fill_rounds >= 1);
    CHECK(first.fill_rounds <= simd::calibration_detail::max_calibration_rounds);
  }
}

TEST_CASE("rows off the vector grid store plainly only where a copy in 16-byte pieces loses", "[arch]") {
  simd::StoreRates zen1{6.5, 14.6, 59, 16u << 20, 4.2, 12.6};  // a Zen 1 guest's copies (GB/s)
  CHECK(simd::pieces_lose_while_reading(zen1));
  simd::StoreRates pieces_faster{30, 40, 8, 64u << 20, 20, 15};
  CHECK_FALSE(simd::pieces_lose_while_reading(pieces_faster));
  // A tie keeps streaming: a full run on the Intel Xeon guest (model 207) measured 11.5 in
  // pieces against 11.9 plain, where its kernels at +16 bytes streamed far faster than plain.
  CHECK_FALSE(simd::pieces_lose_while_reading(simd::StoreRates{9.4, 18.1, 23, 64u << 20, 11.5, 11.9}));
  CHECK(simd::pieces_lose_while_reading(simd::StoreRates{10, 20, 20, 64u << 20, 10, 12.5}));       // 1.25 times: the edge
  CHECK_FALSE(simd::pieces_lose_while_reading(simd::StoreRates{10, 20, 20, 64u << 20, 10, 12.4}));
  // Not measured (16-byte vectors, or no memory for the buffer): keep streaming.
  CHECK_FALSE(simd::pieces_lose_while_reading(simd::StoreRates{30, 40, 8, 64u << 20}));
  CHECK_FALSE(simd::pieces_lose_while_reading(simd::StoreRates{}));
}

TEST_CASE("reductions stream in cache only where streaming stores beat memset far", "[arch]") {
  simd::StoreRates zen1{7.9, 18.4, 60, 16u << 20};  // the Zen 1 guest: rep stosb is slow
  CHECK(simd::streaming_far_ahead(zen1));
  simd::StoreRates zen3{46.6, 45.8, 8, 64u << 20};  // a Zen 3 guest: a tie
  CHECK_FALSE(simd::streaming_far_ahead(zen3));
  CHECK_FALSE(simd::streaming_far_ahead(simd::StoreRates{31, 19, 15, 64u << 20}));  // issue 10's host
  CHECK(simd::streaming_far_ahead(simd::StoreRates{20, 30, 15, 64u << 20}));     // 1.5 times: the edge
  CHECK_FALSE(simd::streaming_far_ahead(simd::StoreRates{20, 29, 15, 64u << 20}));
  CHECK_FALSE(simd::streaming_far_ahead(simd::StoreRates{}));  // nothing measured
}

TEST_CASE("reductions that fill while they read stream in cache where streaming stores keep up with memset", "[arch]") {
  CHECK(simd::streaming_keeps_up(simd::StoreRates{7.9, 18.4, 60, 16u << 20}));   // the Zen 1 guest
  CHECK(simd::streaming_keeps_up(simd::StoreRates{23.9, 33.7, 15, 64u << 20}));  // the Zen 3 guest, 2026-11-27
  CHECK(simd::streaming_keeps_up(simd::StoreRates{76.9, 72.9, 8, 64u << 20}));   // the Zen 4 guest
  CHECK(simd::streaming_keeps_up(simd::StoreRates{46.6, 45.8, 8, 64u << 20}));   // a Zen 3 guest's tie
  CHECK(simd::streaming_keeps_up(simd::StoreRates{20, 16, 15, 64u << 20}));      // 0.8 times: the edge
  CHECK_FALSE(simd::streaming_keeps_up(simd::StoreRates{20, 15.9, 15, 64u << 20}));
  CHECK_FALSE(simd::streaming_keeps_up(simd::StoreRates{31, 19, 15, 64u << 20}));  // issue 10's host
  CHECK_FALSE(simd::streaming_keeps_up(simd::StoreRates{}));                       // nothing measured
}

TEST_CASE("the calibration measures again only where a ratio is near a rule's bar", "[arch]") {
  constexpr std::size_t mib = std::size_t{1} << 20;
  // Streaming stores over memset: near 1.5 (streaming_far_ahead) from 1.25 to 1.8 exclusive,
  // near 0.8 (streaming_keeps_up) from 0.67 to 0.96.
  CHECK(simd::fills_near_a_bar(simd::StoreRates{11.2, 16.3, 17, 64 * mib}));  // 1.46: model 207, one process
  CHECK(simd::fills_near_a_bar(simd::StoreRates{10, 17.9, 20, 64 * mib}));
  CHECK_FALSE(simd::fills_near_a_bar(simd::StoreRates{9.4, 18.1, 23, 64 * mib}));  // 1.93: another
  CHECK_FALSE(simd::fills_near_a_bar(simd::StoreRates{10, 12.4, 20, 64 * mib}));  // between the bands
  CHECK(simd::fills_near_a_bar(simd::StoreRates{31, 24, 15, 64 * mib}));           // 0.77
  CHECK_FALSE(simd::fills_near_a_bar(simd::StoreRates{31, 19, 15, 64 * mib}));     // 0.61: issue 10's host
  CHECK_FALSE(simd::fills_near_a_bar(simd::StoreRates{}));                          // nothing measured
  // The plain copy over the copy in pieces: near 1.25 from 1.04 to 1.5.
  CHECK(simd::copies_near_the_bar(simd::StoreRates{10, 20, 20, 64 * mib, 10, 12}));
  CHECK_FALSE(simd::copies_near_the_bar(simd::StoreRates{9.4, 18.1, 23, 64 * mib, 11.5, 11.9}));  // 1.03
  CHECK_FALSE(simd::copies_near_the_bar(simd::StoreRates{6.5, 14.6, 59, 16 * mib, 4.2, 12.6}));   // 3.0
  CHECK_FALSE(simd::copies_near_the_bar(simd::StoreRates{10, 20, 20, 64 * mib}));                 // not measured
}

TEST_CASE("the calibration's rounds keep each rate's fastest pass", "[arch]") {
  simd::StoreRates best{9.0, 16.0, 20, 64u << 20, 11.5, 14.0};
  simd::keep_fastest(best, simd::StoreRates{10.0, 15.0, 25, 64u << 20, 16.0, 13.0});
  CHECK(best.rep_bytes_per_ns == 10.0);
  CHECK(best.stream_bytes_per_ns == 16.0);
  CHECK(best.patch_ns == 20);  // the cheapest patch
  CHECK(best.piece_copy_bytes_per_ns == 16.0);
  CHECK(best.plain_copy_bytes_per_ns == 14.0);
  CHECK(best.buffer_bytes == (64u << 20));
  // A round that measured no copies (or no patch) leaves those rates as they were.
  simd::keep_fastest(best, simd::StoreRates{8.0, 15.0, 0, 64u << 20});
  CHECK(best.patch_ns == 20);
  CHECK(best.piece_copy_bytes_per_ns == 16.0);
}

TEST_CASE("lagged or leading stores keep half a page from the loads in page offset", "[arch]") {
  using simd::lag_apart_from_loads, simd::lead_apart_from_loads, simd::page_offset_distance;
  const std::uintptr_t load = 0x10000040;
  CHECK(page_offset_distance(load + 16, load) == 16);
  CHECK(page_offset_distance(load - 16, load) == 16);
  CHECK(page_offset_distance(load + 4096 + 2048, load) == 2048);
  // Already a quarter page apart: no lag, no lead.
  CHECK(lag_apart_from_loads(load + 1024, load, 64, 64, 1u << 20) == 0);
  CHECK(lead_apart_from_loads(load + 3072, load, 64) == 0);
  // 16 bytes apart (NumPy's +16 against a page-aligned input): half a page after the shift.
  for (std::uintptr_t apart : {0u, 16u, 64u, 512u, 4080u}) {
    INFO("apart " << apart);
    const std::size_t lag = lag_apart_from_loads(load + apart, load, 64, 64, 8192);
    CHECK(lag % 64 == 0);
    CHECK(page_offset_distance(load + apart - lag, load) >= 2048 - 32);
    const std::size_t lead = lead_apart_from_loads(load + apart, load, 64);
    CHECK(lead < 4096);
    CHECK(page_offset_distance(load + apart + lead, load) >= 2048 - 32);
  }
  // The lag stays within [first, last] on its step: the best reachable, or none.
  CHECK(lag_apart_from_loads(load, load, 1024, 1024, 1024) == 1024);
  CHECK(lag_apart_from_loads(load, load, 1024, 1024, 1000) == 0);
}

// A line written both plain and streamed costs a partial write-combining flush (0.02-0.2 of
// the aligned speed), so store_span's streamed part must own its lines whole.
template <std::size_t Lanes, class U>
void check_streamed_parts() {
  constexpr std::size_t line_bytes = simd::cache_line_bytes, vector_bytes = Lanes * sizeof(U);
  for (std::uintptr_t offset = 0; offset < 2 * line_bytes; offset += sizeof(U))
    for (std::size_t n = 0; n < 300; ++n) {
      const std::uintptr_t address = 4096 + offset;
      const simd::StreamedPart part = simd::streamed_part<Lanes, U>(address, n);
      INFO("lanes " << Lanes << " element bytes " << sizeof(U) << " offset " << offset << " n " << n << " part ["
                    << part.first << ", " << part.last << ")");
      if (part.last == 0) continue;  // all plain
      REQUIRE(part.first < part.last);
      REQUIRE(part.last <= n);
      CHECK((address + part.first * sizeof(U)) % vector_bytes == 0);  // streamed vectors aligned
      CHECK((part.last - part.first) % Lanes == 0);
      // The plain ends can be covered by whole vectors inside them.
      CHECK((part.first == 0 || part.first >= Lanes));
      CHECK((part.last == n || n - part.last >= Lanes));
      const bool all_streamed = part.first == 0 && part.last == n;
      if (all_streamed) {
        CHECK(address % vector_bytes == 0);
        CHECK(n % Lanes == 0);
        continue;
      }
      // No line holds both a plain and a streamed byte.
      auto line_of = [&](std::size_t element) { return (address + element * sizeof(U)) / line_bytes; };
      if (part.first != 0) CHECK(line_of(part.first - 1) < line_of(part.first));
      if (part.last != n) CHECK(line_of(part.last - 1) < line_of(part.last));
    }
}

TEST_CASE("streamed stores never share a cache line with plain ones", "[arch]") {
  check_streamed_parts<4, std::uint32_t>();   // SSE2, 32-bit elements
  check_streamed_parts<8, std::uint32_t>();   // AVX2
  check_streamed_parts<16, std::uint32_t>();  // AVX-512
  check_streamed_parts<32, std::uint8_t>();   // AVX2, bytes
  check_streamed_parts<4, std::uint64_t>();   // AVX2, 64-bit elements
  check_streamed_parts<8, std::uint16_t>();   // SSE2, 16-bit elements
}

TEST_CASE("the first large call of a size measures store rates on its own output, once", "[arch]") {
  using Target = simd::default_arch;
  if constexpr (!simd::has_streaming_stores<Target>) {
    CHECK(simd::rates_for_call<Target>(nullptr, 0, std::size_t{1} << 30).buffer_bytes == 0);
  } else {
    // Sizes no kernel of this suite reaches, so this test makes the first measurement of each.
    const std::size_t bytes = (std::size_t{3} << 20) + 4096;  // size class 22
    std::vector<unsigned char> block(bytes, 0x5A);
    const simd::StoreRates first = simd::rates_for_call<Target>(block.data(), bytes, bytes);
    CHECK(first.buffer_bytes == bytes);  // measured on the block
    CHECK(first.rep_bytes_per_ns > 0);
    CHECK(first.stream_bytes_per_ns > 0);
    const simd::StoreRates again = simd::rates_for_call<Target>(nullptr, 0, bytes - 4096);  // same class
    CHECK(again.buffer_bytes == bytes);
    CHECK(again.rep_bytes_per_ns == first.rep_bytes_per_ns);
    // A size first met as a part of a call (block smaller than the call): the scratch rates.
    const simd::StoreRates part = simd::rates_for_call<Target>(block.data(), bytes, std::size_t{1} << 40);
    CHECK(part.buffer_bytes >= (std::size_t{16} << 20));
  }
}
