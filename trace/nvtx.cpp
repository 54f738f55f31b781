#include <proofline/trace/nvtx.hpp>

#if PROOFLINE_HAVE_CUDA
#include <nvtx3/nvToolsExt.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#endif

namespace proofline::trace {

#if PROOFLINE_HAVE_CUDA

namespace {

nvtxDomainHandle_t domain() noexcept {
  static const nvtxDomainHandle_t handle = nvtxDomainCreateA("proofline");
  return handle;
}

nvtxEventAttributes_t attributes(const char* name) noexcept {
  // The SVG timeline's palette; FNV-1a of the name keeps a stage's colour across runs.
  static constexpr std::uint32_t palette[] = {0xff4e79a7, 0xfff28e2b, 0xffe15759, 0xff76b7b2, 0xff59a14f,
                                              0xffedc948, 0xffb07aa1, 0xffff9da7, 0xff9c755f, 0xffbab0ac};
  std::uint32_t hash = 2166136261u;
  for (const char* p = name; *p != '\0'; ++p) hash = (hash ^ static_cast<unsigned char>(*p)) * 16777619u;
  nvtxEventAttributes_t attr;
  std::memset(&attr, 0, sizeof attr);
  attr.version = NVTX_VERSION;
  attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attr.colorType = NVTX_COLOR_ARGB;
  attr.color = palette[hash % 10];
  attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attr.message.ascii = name;
  return attr;
}

}  // namespace

bool nvtx_compiled_in() noexcept {
  return true;
}

void nvtx_push(const char* name) noexcept {
  const nvtxEventAttributes_t attr = attributes(name);
  nvtxDomainRangePushEx(domain(), &attr);
}

void nvtx_pop() noexcept {
  nvtxDomainRangePop(domain());
}

std::uint64_t nvtx_start(const char* name) noexcept {
  const nvtxEventAttributes_t attr = attributes(name);
  return nvtxDomainRangeStartEx(domain(), &attr);
}

void nvtx_end(std::uint64_t range_id) noexcept {
  nvtxDomainRangeEnd(domain(), range_id);
}

void nvtx_name_current_thread(const char* name) noexcept {
  nvtxNameOsThreadA(static_cast<std::uint32_t>(::syscall(SYS_gettid)), name);
}

#else

bool nvtx_compiled_in() noexcept {
  return false;
}
void nvtx_push(const char*) noexcept {}
void nvtx_pop() noexcept {}
std::uint64_t nvtx_start(const char*) noexcept {
  return 0;
}
void nvtx_end(std::uint64_t) noexcept {}
void nvtx_name_current_thread(const char*) noexcept {}

#endif

}  // namespace proofline::trace
