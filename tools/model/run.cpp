// Running a model: check everything that can be checked before anything runs, fill the
// buffers, run the commands in order, and put written files in place only at the end.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sys/stat.h>
#include <unistd.h>

#include "npy.hpp"
#include "progress.hpp"
#include "read.hpp"

namespace refops::model {

void Bytes::Free::operator()(std::byte* p) const { std::free(p); }

Bytes::Bytes(std::uint64_t size) : size_(size) {
  // calloc: large blocks come from mmap as zero pages, so a buffer costs nothing until written.
  data_.reset(static_cast<std::byte*>(std::calloc(size ? size : 1, 1)));
  if (!data_) throw std::bad_alloc();
}

ExecuteOptions execute_options(const RunOptions& o) {
  ExecuteOptions e;
  e.feature_level = o.feature_level;
  e.arch = o.arch;
  e.max_threads = o.threads;  // --threads N: at most N threads of the default pool (0: all)
  return e;
}

namespace {

constexpr std::uint64_t io_chunk = 64u << 20;

// The bytes a bound buffer must hold: TotalTensorSizeInBytes, which DxDispatch defaults to
// DMLCalcBufferTensorSize (DirectML: "the bound buffer range must be at least this large").
std::uint64_t required_bytes(const TensorDesc& t) { return t.total_bytes ? t.total_bytes : calc_buffer_tensor_size(t); }

// The tensor descriptions of a dispatchable by bind point name.
std::vector<std::pair<std::string, const TensorDesc*>> tensors_of(const Desc& desc) {
  return std::visit(
      [](const auto& d) -> std::vector<std::pair<std::string, const TensorDesc*>> {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<D, OneHotDesc>)
          return {{"IndicesTensor", &d.indices}, {"ValuesTensor", &d.values}, {"OutputTensor", &d.output}};
        else if constexpr (std::is_same_v<D, DiagonalMatrixDesc>)
          return {{"OutputTensor", &d.output}};
        else if constexpr (std::is_same_v<D, DiagonalMatrix1Desc>) {
          if (d.input) return {{"InputTensor", &*d.input}, {"OutputTensor", &d.output}};
          return {{"OutputTensor", &d.output}};
        } else
          return {{"InputTensor", &d.input}, {"OutputTensor", &d.output}};
      },
      desc);
}

// Every dispatchable valid at the level asked, and every dispatch's buffers large enough.
void check_before_running(const Model& m, const RunOptions& o) {
  std::vector<Problem> problems;
  for (const Dispatchable& d : m.dispatchables)
    for (const Diagnostic& diag : validate(d, o.feature_level)) problems.push_back({d.json_path(diag), diag.message});
  if (!problems.empty()) throw InvalidError(problems);
  for (const Command& c : m.commands) {
    const auto* dispatch = std::get_if<DispatchCommand>(&c.what);
    if (!dispatch) continue;
    const Dispatchable& d = *m.dispatchable(dispatch->dispatchable);
    for (const auto& [point, tensor] : tensors_of(d.desc)) {
      const Binding& b = dispatch->bindings.at(point);
      const Resource& r = *m.resource(b.resource);
      std::uint64_t need = 0;
      try {
        need = required_bytes(*tensor);
      } catch (const Error& e) {  // not reached for a valid description; kept so run() throws only its two errors
        for (const Diagnostic& diag : e.diagnostics()) problems.push_back({d.json_path(diag), diag.message});
        continue;
      }
      if (b.offset_bytes > r.size_bytes) {
        problems.push_back({b.path + " (" + point + ".Binding.Offset)",
                            "byte offset " + std::to_string(b.offset_bytes) + " is past the end of \"" + r.name + "\" (" +
                                std::to_string(r.size_bytes) + " bytes)"});
      } else if (r.size_bytes - b.offset_bytes < need) {
        problems.push_back({b.path + " (" + point + ".Binding.SizeInBytes)",
                            "the tensor needs " + std::to_string(need) + " bytes (TotalTensorSizeInBytes); \"" + r.name +
                                "\" has " + std::to_string(r.size_bytes - b.offset_bytes) + " from byte offset " +
                                std::to_string(b.offset_bytes)});
      }
    }
  }
  if (!problems.empty()) throw InvalidError(problems);
}

// refops's diagnostics from execute(), placed in the model: binding problems at the command's
// binding, the forced path at --arch, description problems in the dispatchable.
InvalidError placed(const Error& e, const Dispatchable& d, const DispatchCommand& c) {
  std::vector<Problem> problems;
  for (const Diagnostic& diag : e.diagnostics()) {
    const std::string point = diag.field.substr(0, diag.field.find('.'));
    if (diag.field.find(".Binding") != std::string::npos && c.bindings.count(point))
      problems.push_back({c.bindings.at(point).path + " (" + diag.field + ")", diag.message});
    else if (diag.field.starts_with("ExecuteOptions.arch"))
      problems.push_back({"--arch", diag.message});
    else
      problems.push_back({d.json_path(diag), diag.message});
  }
  return InvalidError(problems);
}

void dispatch(const Model& m, const DispatchCommand& c, std::map<std::string, Buffer>& buffers, const RunOptions& o) {
  const Dispatchable& d = *m.dispatchable(c.dispatchable);
  auto bound = [&](const char* point) -> Out {
    const Binding& b = c.bindings.at(point);
    Buffer& buf = buffers.at(b.resource);
    // The rest of the buffer from the offset, as DxDispatch binds it (SizeInBytes).
    return buf.bytes.span().subspan(static_cast<std::size_t>(b.offset_bytes));
  };
  const ExecuteOptions options = execute_options(o);
  Progress progress(o.progress, "dispatch \"" + d.name + "\" (" + d.type + ")", 0);
  try {
    std::visit(
        [&](auto desc) {
          using D = decltype(desc);
          if constexpr (std::is_same_v<D, OneHotDesc>) {
            execute(desc, bound("IndicesTensor"), bound("ValuesTensor"), bound("OutputTensor"), options);
          } else if constexpr (std::is_same_v<D, DiagonalMatrixDesc>) {
            execute(desc, bound("OutputTensor"), options);
          } else if constexpr (std::is_same_v<D, DiagonalMatrix1Desc>) {
            execute(desc, desc.input ? In(bound("InputTensor")) : In{}, bound("OutputTensor"), options);
          } else {
            desc.nan_mode = o.nan_mode;
            execute(desc, bound("InputTensor"), bound("OutputTensor"), options);
          }
        },
        d.desc);
  } catch (const Error& e) {
    throw placed(e, d, c);
  }
}

// Files written so far, under temporary names beside their targets; renamed into place by
// commit(), removed (with any folders made for them) otherwise.
class PendingFiles {
 public:
  ~PendingFiles() {
    for (auto& f : files_) std::remove(f.temp.c_str());
    for (auto it = made_folders_.rbegin(); it != made_folders_.rend(); ++it) {
      std::error_code ec;
      std::filesystem::remove(*it, ec);  // only if still empty
    }
  }

  void write(const Command& c, const WriteFileCommand& w, const Buffer& buf, bool progress) {
    const std::filesystem::path folder = w.target.parent_path().empty() ? "." : w.target.parent_path();
    make_folders(c, folder);
    // Named: on "..." + a temporary string, GCC 12 -O2 draws a false -Wstringop-overflow.
    const std::string name = w.target.filename().string();
    std::string temp = (folder / ("." + name + ".refops-run-XXXXXX")).string();
    const int fd = mkstemp(temp.data());
    if (fd < 0) throw ModelError(c.path + ".targetPath", "cannot create a file in \"" + folder.string() + "\": " + std::strerror(errno));
    files_.push_back({temp, w.target});
    // mkstemp makes the file 0600; give it the mode a plain create would (0666 less the umask).
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
    std::FILE* file = fdopen(fd, "wb");
    if (!file) {
      ::close(fd);
      throw ModelError(c.path + ".targetPath", std::string("cannot write: ") + std::strerror(errno));
    }
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(file, &std::fclose);

    const std::size_t element = size_of(buf.type);
    std::uint64_t bytes = buf.bytes.size();
    if (extension_of(w.target) == ".npy") {
      // 1-D with every whole element of the buffer (padding included) unless dimensions say.
      std::vector<std::uint64_t> shape = w.dimensions.value_or(std::vector<std::uint64_t>{bytes / element});
      bytes = element;
      for (std::uint64_t d : shape) bytes *= d;
      const std::string header = npy_header(buf.type, shape);
      put(c, file, header.data(), header.size());
    }
    Progress p(progress, "writing " + w.target.string(), bytes);
    for (std::uint64_t done = 0; done < bytes;) {
      const std::uint64_t n = std::min(io_chunk, bytes - done);
      put(c, file, buf.bytes.data() + done, n);
      done += n;
      p.set_done(done);
    }
    if (std::fflush(file) != 0) throw ModelError(c.path + ".targetPath", std::string("cannot write: ") + std::strerror(errno));
    closer.reset();
  }

  void commit() {
    for (auto& f : files_)
      if (std::rename(f.temp.c_str(), f.target.c_str()) != 0)
        throw ModelError(f.target.string(), std::string("cannot rename the written file into place: ") + std::strerror(errno));
    files_.clear();
    made_folders_.clear();
  }

 private:
  struct File {
    std::string temp;
    std::filesystem::path target;
  };
  static void put(const Command& c, std::FILE* f, const void* data, std::uint64_t n) {
    if (std::fwrite(data, 1, n, f) != n) throw ModelError(c.path + ".targetPath", std::string("cannot write: ") + std::strerror(errno));
  }
  void make_folders(const Command& c, const std::filesystem::path& folder) {
    std::error_code ec;
    if (std::filesystem::exists(folder, ec)) return;
    make_folders(c, folder.parent_path().empty() ? "." : folder.parent_path());
    if (!std::filesystem::create_directory(folder, ec) && ec)
      throw ModelError(c.path + ".targetPath", "cannot make the folder \"" + folder.string() + "\": " + ec.message());
    made_folders_.push_back(folder);
  }
  std::vector<File> files_;
  std::vector<std::filesystem::path> made_folders_;
};

}  // namespace

std::map<std::string, Buffer> run(const Model& m, const RunOptions& o) {
  check_before_running(m, o);

  std::map<std::string, Buffer> buffers;
  for (const Resource& r : m.resources) {
    Buffer b;
    b.type = r.type;
    b.initial_bytes = r.initial_bytes;
    try {
      b.bytes = Bytes(r.size_bytes);
    } catch (const std::bad_alloc&) {
      throw ModelError(r.path, "cannot allocate " + std::to_string(r.size_bytes) + " bytes");
    }
    // Only file reads report how far they are; generated values show the time alone.
    const bool from_file = std::holds_alternative<FileValues>(r.initializer);
    Progress p(o.progress, (from_file ? "reading \"" : "filling \"") + r.name + "\"", from_file ? r.initial_bytes : 0);
    fill_initial_values(r, b.bytes.span(), [&](std::uint64_t done) { p.set_done(done); });
    buffers.emplace(r.name, std::move(b));
  }

  PendingFiles files;
  for (const Command& c : m.commands) {
    if (const auto* d = std::get_if<DispatchCommand>(&c.what)) {
      dispatch(m, *d, buffers, o);
    } else if (const auto* p = std::get_if<PrintCommand>(&c.what)) {
      if (o.print) print_buffer(*o.print, p->resource, buffers.at(p->resource), p->verbose);
    } else if (const auto* w = std::get_if<WriteFileCommand>(&c.what)) {
      if (o.write_files) files.write(c, *w, buffers.at(w->resource), o.progress);
    }
  }
  files.commit();
  return buffers;
}

}  // namespace refops::model
