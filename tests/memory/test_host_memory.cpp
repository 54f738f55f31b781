#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <proofline/memory/host_memory.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/size.hpp>

#include "support/temp_dir.hpp"

using namespace proofline;
using namespace proofline::memory;
namespace fs = std::filesystem;

namespace {

// A fake root with just the files detect_host_memory() reads.
class FakeRoot {
 public:
  void write(const std::string& path, const std::string& text) const {
    const fs::path file = dir_.path() / fs::path(path).relative_path();
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
  }
  void meminfo(std::uint64_t total_kib, std::uint64_t available_kib) const {
    write("/proc/meminfo", "MemTotal:       " + std::to_string(total_kib) +
                               " kB\nMemFree:         1000 kB\nMemAvailable:   " +
                               std::to_string(available_kib) + " kB\nBuffers:          100 kB\n");
  }
  const fs::path& path() const { return dir_.path(); }

 private:
  test_support::TempDir dir_{"proofline-host-memory"};
};

constexpr std::uint64_t kib_per_gib = 1024 * 1024;

}  // namespace

TEST_CASE("memory/host/cgroup v2: the limit less the non-reclaimable usage bounds what is usable") {
  FakeRoot root;
  root.meminfo(64 * kib_per_gib, 60 * kib_per_gib);
  root.write("/proc/self/cgroup", "0::/system.slice/job.scope\n");
  root.write("/proc/self/mountinfo",
             "22 1 0:21 / /sys rw,nosuid - sysfs sysfs rw\n"
             "30 22 0:26 / /sys/fs/cgroup rw,nosuid,nodev - cgroup2 cgroup2 rw,nsdelegate\n");
  root.write("/sys/fs/cgroup/system.slice/job.scope/memory.max", std::to_string(8 * GiB) + "\n");
  root.write("/sys/fs/cgroup/system.slice/job.scope/memory.current", std::to_string(3 * GiB) + "\n");
  root.write("/sys/fs/cgroup/system.slice/job.scope/memory.stat",
             "anon 1000\nfile 2000\ninactive_file " + std::to_string(GiB) + "\nactive_file 10\n");
  root.write("/sys/fs/cgroup/system.slice/memory.max", "max\n");

  const HostMemory memory = detect_host_memory(root.path());
  CHECK(memory.mem_total == 64 * GiB);
  CHECK(memory.mem_available == 60 * GiB);
  REQUIRE(memory.cgroup_limit);
  CHECK(*memory.cgroup_limit == 8 * GiB);
  CHECK(memory.cgroup_usage == 2 * GiB);
  CHECK(memory.usable == 6 * GiB);
  CHECK(memory.cgroup_source.find("job.scope/memory.max") != std::string::npos);
}

TEST_CASE("memory/host/cgroup v2: a parent's tighter limit binds") {
  FakeRoot root;
  root.meminfo(64 * kib_per_gib, 60 * kib_per_gib);
  root.write("/proc/self/cgroup", "0::/batch/task7\n");
  root.write("/proc/self/mountinfo", "30 22 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
  root.write("/sys/fs/cgroup/batch/task7/memory.max", "max\n");
  root.write("/sys/fs/cgroup/batch/task7/memory.current", "0\n");
  root.write("/sys/fs/cgroup/batch/memory.max", std::to_string(4 * GiB) + "\n");

  const HostMemory memory = detect_host_memory(root.path());
  REQUIRE(memory.cgroup_limit);
  CHECK(*memory.cgroup_limit == 4 * GiB);
  CHECK(memory.usable == 4 * GiB);
}

TEST_CASE("memory/host/cgroup v1 inside a container namespace") {
  FakeRoot root;
  root.meminfo(32 * kib_per_gib, 30 * kib_per_gib);
  root.write("/proc/self/cgroup", "5:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n0::/\n");
  // The container sees its own cgroup mounted at the controller's mount point (mount root = its path).
  root.write("/proc/self/mountinfo",
             "40 30 0:35 /docker/abc /sys/fs/cgroup/memory rw,nosuid - cgroup cgroup rw,memory\n"
             "41 30 0:36 /docker/abc /sys/fs/cgroup/cpu\\054cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n");
  root.write("/sys/fs/cgroup/memory/memory.limit_in_bytes", std::to_string(2 * GiB) + "\n");
  root.write("/sys/fs/cgroup/memory/memory.usage_in_bytes", std::to_string(3 * GiB / 2) + "\n");
  root.write("/sys/fs/cgroup/memory/memory.stat",
             "cache 5\ninactive_file 7\ntotal_inactive_file " + std::to_string(GiB / 2) + "\n");

  const HostMemory memory = detect_host_memory(root.path());
  REQUIRE(memory.cgroup_limit);
  CHECK(*memory.cgroup_limit == 2 * GiB);
  CHECK(memory.cgroup_usage == GiB);
  CHECK(memory.usable == GiB);
  CHECK(memory.cgroup_source.find("cgroup v1") == 0);
}

TEST_CASE("memory/host/no cgroup limit: MemAvailable decides") {
  FakeRoot root;
  root.meminfo(16 * kib_per_gib, 12 * kib_per_gib);
  root.write("/proc/self/cgroup", "4:memory:/\n");
  root.write("/proc/self/mountinfo", "40 30 0:35 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n");
  root.write("/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
  root.write("/sys/fs/cgroup/memory/memory.usage_in_bytes", "12345\n");

  const HostMemory memory = detect_host_memory(root.path());
  CHECK_FALSE(memory.cgroup_limit);
  CHECK(memory.usable == 12 * GiB);
}

TEST_CASE("memory/host/an unreadable meminfo is an i/o error") {
  FakeRoot root;
  try {
    (void)detect_host_memory(root.path());
    FAIL("no error without /proc/meminfo");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::io);
    CHECK(std::string(e.what()).find("meminfo") != std::string::npos);
  }
}

TEST_CASE("memory/host/the budget is the usable memory less a margin") {
  HostMemory memory;
  memory.usable = 64 * GiB;
  CHECK(default_host_margin(64 * GiB) == 4 * GiB);
  CHECK(default_host_margin(GiB) == 512 * MiB);
  CHECK(default_host_margin(1024 * GiB) == 8 * GiB);
  CHECK(host_budget_bytes(memory) == 60 * GiB);
  CHECK(host_budget_bytes(memory, GiB) == 63 * GiB);
  try {
    (void)host_budget_bytes(memory, 64 * GiB);
    FAIL("a margin that leaves nothing was accepted");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::out_of_budget);
  }
}

TEST_CASE("memory/host/this machine's figures are consistent") {
  const HostMemory memory = detect_host_memory();
  CHECK(memory.mem_total > 0);
  CHECK(memory.mem_available <= memory.mem_total);
  CHECK(memory.usable <= memory.mem_available);
  CHECK(memory.usable > 0);
  if (memory.cgroup_limit) CHECK(memory.usable <= *memory.cgroup_limit);
}
