// What the snarkjs readers and writers do with hostile or changing files: a loaded .zkey keeps working after
// its file is truncated or overwritten (it is read into memory the key owns, never mapped); a FIFO, device or
// directory named as a .wtns, .zkey, .r1cs or JSON file is refused at once; a witness is written 0600 and a
// symbolic link at an output path is replaced, its target untouched; messages that quote a file's content
// stay short and free of terminal control characters.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <proofline/groth16/json.hpp>
#include <proofline/groth16/prover.hpp>
#include <proofline/groth16/r1cs_file.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/groth16/wtns.hpp>
#include <proofline/groth16/zkey.hpp>

#include "groth16/file_safety.hpp"
#include "groth16/helpers.hpp"
#include "snarkjs/helpers.hpp"

using namespace proofline;
using namespace proofline::groth16;
using namespace proofline::snarkjs_test;
using namespace proofline::file_safety_test;

namespace {}  // namespace

TEST_CASE("groth16/file_safety/a loaded zkey proves after its file is truncated, overwritten or removed") {
  groth16::test::TempDir dir;
  const auto path = dir / "circuit_final.zkey";
  std::filesystem::copy_file(fixture("chain_16", "circuit_final.zkey"), path);
  const ZkeyFile key = read_zkey(path, ZkeyOptions{.points = PointCheck::trusted});
  const std::uint64_t infinities = touch_every_point(key.pk);
  const std::vector<Fr> z = read_wtns(fixture("chain_16", "witness.wtns"));
  const PreparedVerifyingKey pvk = prepare(key.vk);

  std::filesystem::resize_file(path, 0);
  CHECK(touch_every_point(key.pk) == infinities);
  CHECK(verify(pvk, public_inputs(z, 2), prove(key.pk, key.cs, z)));

  write_file_bytes(
      path, std::vector<std::byte>(std::filesystem::file_size(fixture("chain_16", "circuit_final.zkey")),
                                   std::byte{0xee}));
  CHECK(touch_every_point(key.pk) == infinities);
  std::filesystem::remove(path);
  CHECK(verify(pvk, public_inputs(z, 2), prove(key.pk, key.cs, z)));
}

TEST_CASE("groth16/file_safety/a FIFO named as a wtns, zkey, r1cs or JSON file is refused at once") {
  groth16::test::TempDir dir;
  const auto fifo = dir / "pipe";
  make_fifo(fifo);
  const std::string expected = fifo.string() + ": not a regular file (a FIFO)";
  CHECK(contains(fifo_error(fifo, [&] { read_wtns(fifo); }), expected));
  CHECK(contains(fifo_error(fifo, [&] { check_wtns(fifo); }), expected));
  CHECK(contains(fifo_error(fifo, [&] { read_wtns_header(fifo); }), expected));
  CHECK(contains(fifo_error(fifo, [&] { read_zkey(fifo); }), expected));
  CHECK(contains(fifo_error(fifo, [&] { read_r1cs(fifo); }), expected));
  CHECK(contains(fifo_error(fifo, [&] { read_json_file(fifo); }), expected));
  CHECK(contains(fifo_error(fifo, [&] { read_snarkjs_proof(fifo); }), expected));
}

TEST_CASE("groth16/file_safety/devices and directories are refused by kind") {
  groth16::test::TempDir dir;
  CHECK(contains(bad_input_message([] { read_zkey("/dev/zero"); }),
                 "/dev/zero: not a regular file (a character device)"));
  CHECK(contains(bad_input_message([] { read_json_file("/dev/null"); }),
                 "/dev/null: not a regular file (a character device)"));
  CHECK(contains(bad_input_message([&] { read_wtns(dir.path()); }), "not a regular file (a directory)"));
}

TEST_CASE("groth16/file_safety/a witness is written readable by its owner only") {
  groth16::test::TempDir dir;
  const ScopedUmask umask(022);  // what most shells set: 0644 would stay readable by everyone
  const std::vector<Fr> z = read_wtns(fixture("chain_16", "witness.wtns"));
  write_wtns(dir / "w.wtns", z);
  CHECK(permissions_of(dir / "w.wtns") == 0600);
  CHECK(read_wtns(dir / "w.wtns") == z);

  // Replacing a world-readable file leaves a 0600 one.
  write_file_text(dir / "old.wtns", "old");
  std::filesystem::permissions(dir / "old.wtns", std::filesystem::perms(0644));
  write_wtns(dir / "old.wtns", z);
  CHECK(permissions_of(dir / "old.wtns") == 0600);
  // Public outputs stay readable.
  write_snarkjs_public(dir / "public.json", public_inputs(z, 2));
  CHECK(permissions_of(dir / "public.json") == 0644);
}

TEST_CASE("groth16/file_safety/a symbolic link at an output path is replaced, its target untouched") {
  groth16::test::TempDir dir;
  const std::vector<Fr> z = read_wtns(fixture("chain_16", "witness.wtns"));
  const ZkeyFile key =
      read_zkey(fixture("chain_16", "circuit_final.zkey"), ZkeyOptions{.points = PointCheck::trusted});
  const Proof proof = prove(key.pk, key.cs, z);
  const std::vector<std::pair<std::string, std::function<void(const std::filesystem::path&)>>> writers = {
      {"w.wtns", [&](const std::filesystem::path& p) { write_wtns(p, z); }},
      {"proof.json", [&](const std::filesystem::path& p) { write_snarkjs_proof(p, proof); }},
      {"public.json", [&](const std::filesystem::path& p) { write_snarkjs_public(p, public_inputs(z, 2)); }},
      {"vk.json", [&](const std::filesystem::path& p) { write_snarkjs_verifying_key(p, key.vk); }},
  };
  for (const auto& [name, write] : writers) {
    CAPTURE(name);
    const auto target = dir / ("target-of-" + name);
    const auto link = dir / name;
    write_file_text(target, "do not touch");
    std::filesystem::create_symlink(target, link);
    write(link);
    CHECK_FALSE(std::filesystem::is_symlink(link));
    CHECK(std::filesystem::is_regular_file(link));
    CHECK(file_text(target) == "do not touch");
  }
  CHECK(read_wtns(dir / "w.wtns") == z);
  CHECK(read_snarkjs_proof(dir / "proof.json") == proof);
  // Nothing but the outputs and the link targets is left behind (no temporary files).
  CHECK(
      std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator()) ==
      2 * static_cast<std::ptrdiff_t>(writers.size()));
}

TEST_CASE("groth16/file_safety/a huge or escape-laden JSON string makes a short, escaped message") {
  const std::string huge(20u << 20, 'x');  // 20 MiB
  const std::string proof_text = file_text(fixture("chain_16", "proof.json"));
  auto with_curve = [&](const std::string& curve) {
    json::Value doc = json::parse(proof_text, "proof.json");
    doc.set("curve", json::Value(curve));
    return doc;
  };

  const std::string long_message =
      bad_input_message([&] { snarkjs_proof_from_json(with_curve(huge), "p.json"); });
  CHECK(long_message.size() < 300);
  CHECK(contains(long_message, "p.json: \"curve\" is \"xxxx"));
  CHECK(contains(long_message, "... (" + std::to_string(huge.size()) + " bytes), expected \"bls12381\""));

  const std::string escape_message = bad_input_message(
      [&] { snarkjs_proof_from_json(with_curve("\x1b]0;owned\x07\x1b[2J\xff"), "p.json"); });
  CHECK_FALSE(has_control_bytes(escape_message));
  CHECK(contains(escape_message, R"("\u001b]0;owned\u0007\u001b[2J\xff")"));

  // A field element that is not a number: the same bound and escapes.
  const std::string element_message = bad_input_message(
      [&] { snarkjs_public_from_json(json::Value::array({json::Value(huge + "\x1b[31m")}), "public.json"); });
  CHECK(element_message.size() < 300);
  CHECK_FALSE(has_control_bytes(element_message));

  // Through the file reader: a 20 MiB key in a JSON file, and a duplicate key holding an escape.
  groth16::test::TempDir dir;
  write_file_text(dir / "big.json", "{\"" + huge + "\": 1, \"" + huge + "\": 2}");
  const std::string duplicate = bad_input_message([&] { read_json_file(dir / "big.json"); });
  CHECK(duplicate.size() < 300 + (dir / "big.json").string().size());
  CHECK(contains(duplicate, "duplicate key \"xxxx"));
  write_file_text(dir / "esc.json", "{\"\\u001b[2J\": 1, \"\\u001b[2J\": 2}");
  const std::string escaped = bad_input_message([&] { read_json_file(dir / "esc.json"); });
  CHECK_FALSE(has_control_bytes(escaped));
  CHECK(contains(escaped, R"(duplicate key "\u001b[2J")"));
}
