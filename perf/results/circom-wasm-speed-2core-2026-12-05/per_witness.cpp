// One thread's time per witness of circom witness generators that proofline built (the witness.so files in
// its generator cache), loaded side by side with dlopen and called through proofline's C entry points: ITER
// witnesses of one fixed MiMC input per repetition, the generators taking turns repetition by repetition, so
// that a load on the machine falls on all of them alike. Prints the best and the median repetition per
// witness and a checksum of the witness bytes (equal for generators that agree).
//
//   g++ -O2 -o per_witness per_witness.cpp -ldl
//   ./per_witness ITER REPS NAME=SO[,DAT] ...
//
// SO is a generator's witness.so; a --c generator also needs its circuit.dat (DAT). Variants of one generator
// were made by copying its cache folder and compiling its sources there again with other flags or another
// shim (README.md).
#include <dlfcn.h>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
using Compute = int (*)(const void*, const char*, std::size_t, unsigned char*, std::uint64_t, char*,
                        std::size_t);
struct V {
  std::string name;
  void* c;
  Compute compute;
  std::uint64_t n;
  std::vector<double> per;
  unsigned sum = 0;
};
int main(int argc, char** argv) {
  const int iter = std::atoi(argv[1]), reps = std::atoi(argv[2]);
  std::vector<V> vs;
  char err[1000];
  for (int a = 3; a < argc; ++a) {
    std::string arg = argv[a];
    const auto eq = arg.find('=');
    std::string path = arg.substr(eq + 1), dat;
    if (const auto comma = path.find(','); comma != std::string::npos) {
      dat = path.substr(comma + 1);
      path.resize(comma);
    }
    void* so = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!so) {
      std::printf("%s\n", dlerror());
      return 1;
    }
    auto load = (void* (*)(const char*, const char*, char*, std::size_t))dlsym(so, "proofline_circom_load");
    auto wsize = (std::uint64_t(*)())dlsym(so, "proofline_circom_witness_size");
    vs.push_back({arg.substr(0, eq),
                  load(dat.c_str(), "", err, sizeof err),
                  (Compute)dlsym(so, "proofline_circom_compute"),
                  wsize(),
                  {}});
  }
  const std::string json = "{\"a\": \"5\", \"b\": \"35\", \"k\": \"8\"}";
  for (int r = 0; r < reps; ++r)
    for (V& v : vs) {
      std::vector<unsigned char> out(v.n * 32);
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < iter; ++i)
        if (v.compute(v.c, json.data(), json.size(), out.data(), v.n, err, sizeof err) != 0) {
          std::printf("%s\n", err);
          return 1;
        }
      v.per.push_back(
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / iter);
      for (auto b : out) v.sum = v.sum * 31 + b;
    }
  for (V& v : vs) {
    std::sort(v.per.begin(), v.per.end());
    std::printf("%-10s best %7.1f us  median %7.1f us  (checksum %08x)\n", v.name.c_str(), v.per[0],
                v.per[v.per.size() / 2], v.sum);
  }
}
