// What the native-format readers and writers, the key cache, the JSON parser and the message helpers do with
// hostile or changing files: a loaded key keeps working after its file is truncated or overwritten (read into
// memory the key owns, never mapped); a FIFO named as a key, constraint system or cache file is refused at
// once; a symbolic link at an output path is replaced, its target untouched; objects with many keys parse in
// linear time; messages quote input short and escaped; secrets are wiped.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <proofline/groth16/json.hpp>
#include <proofline/groth16/key_cache.hpp>
#include <proofline/groth16/native_file.hpp>
#include <proofline/groth16/prover.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/util/secure_wipe.hpp>
#include <proofline/util/text.hpp>

#include "groth16/file_safety.hpp"
#include "groth16/helpers.hpp"
#include "support/errors.hpp"

using namespace proofline;
using namespace proofline::groth16;
using namespace proofline::file_safety_test;

namespace {

const test::SmallFixture& fixture() {
  return test::small_fixture(6, HConvention::snarkjs);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE(
    "groth16/file_safety/a loaded native key proves after its file is truncated, overwritten or removed") {
  test::TempDir dir;
  const auto& f = fixture();
  const auto path = dir / "key.plkey";
  const auto& z = f.circuit.witness;
  const PreparedVerifyingKey pvk = prepare(f.keys.vk);
  for (const auto mode : {LoadOptions::Mode::map, LoadOptions::Mode::read}) {
    write_proving_key(path, f.keys.pk, &f.keys.vk);
    const size_t size = std::filesystem::file_size(path);
    const ProvingKey key = load_proving_key(path, LoadOptions{.mode = mode}).value.pk;
    const std::uint64_t infinities = touch_every_point(key);

    std::filesystem::resize_file(path, 0);
    CHECK(touch_every_point(key) == infinities);
    CHECK(verify(pvk, public_inputs(z, 2), prove(key, f.circuit.cs, z)));
    test::write_bytes(path, std::vector<std::uint8_t>(size, 0xee));
    CHECK(touch_every_point(key) == infinities);
    std::filesystem::remove(path);
    CHECK(verify(pvk, public_inputs(z, 2), prove(key, f.circuit.cs, z)));
  }

  // A constraint system too.
  write_constraint_system(dir / "cs.plpce", f.circuit.cs);
  const ConstraintSystem cs = load_constraint_system(dir / "cs.plpce").value;
  std::filesystem::resize_file(dir / "cs.plpce", 0);
  CHECK(is_satisfied(cs, z));
}

TEST_CASE("groth16/file_safety/a FIFO named as a native file or key cache entry is refused at once") {
  test::TempDir dir;
  const auto fifo = dir / "pipe";
  make_fifo(fifo);
  const std::string expected = fifo.string() + ": not a regular file (a FIFO)";
  CHECK(contains(fifo_error(fifo, [&] { load_proving_key(fifo); }), expected));
  CHECK(contains(fifo_error(fifo, [&] { load_verifying_key(fifo); }), expected));
  CHECK(contains(fifo_error(fifo, [&] { load_constraint_system(fifo); }), expected));
  CHECK(contains(fifo_error(fifo, [&] { native_file_kind(fifo); }), expected));
  CHECK(contains(fifo_error(fifo, [&] { load_proving_key(fifo, {.mode = LoadOptions::Mode::read}); }),
                 expected));
  CHECK(contains(test_support::error_message(Errc::bad_input, [] { load_proving_key("/dev/zero"); }),
                 "/dev/zero: not a regular file (a character device)"));
  // A kernel pseudo-file is a regular file of size 0 with contents: named as such, not called empty.
  for (const char* pseudo : {"/proc/self/status", "/proc/self/cmdline"}) {
    CAPTURE(pseudo);
    CHECK(contains(test_support::error_message(Errc::bad_input, [&] { load_proving_key(pseudo); }),
                   std::string(pseudo) + ": the file reports size 0 but has contents"));
    CHECK(contains(test_support::error_message(Errc::bad_input,
                                               [&] { json::read_text_file(pseudo, 1 << 20, "a JSON file"); }),
                   "reports size 0 but has contents"));
  }

  // The key cache: a FIFO where its file should be is not waited on; the key is made and replaces it.
  const SyntheticOptions options{.log_size = 4, .num_public = 1, .seed = 3};
  const auto circuit = make_synthetic_circuit(options);
  const std::string name = synthetic_circuit_name(options);
  const KeyCacheRequest request{.directory = dir.path(), .circuit_name = name, .trapdoor_seed = 2};
  const auto cached = key_cache_path(request, HConvention::snarkjs, 4);
  make_fifo(cached);
  bool loaded = true;
  const Outcome made = outcome_within_deadline(cached, [&] {
    load_or_setup(circuit.cs, request, SetupOptions{.convention = HConvention::snarkjs}, &loaded);
  });
  CHECK_MESSAGE(!made.threw, made.message);
  CHECK_FALSE(loaded);
  CHECK(std::filesystem::is_regular_file(cached));
}

TEST_CASE("groth16/file_safety/a symbolic link at a native output path is replaced, its target untouched") {
  test::TempDir dir;
  const auto& f = fixture();
  const auto target = dir / "target";
  const auto link = dir / "key.plkey";
  test::write_bytes(target, {1, 2, 3});
  std::filesystem::create_symlink(target, link);
  write_proving_key(link, f.keys.pk, &f.keys.vk);
  CHECK_FALSE(std::filesystem::is_symlink(link));
  CHECK(test::read_bytes(target) == std::vector<std::uint8_t>{1, 2, 3});
  CHECK(load_proving_key(link).value.pk.a_query.size() == f.keys.pk.a_query.size());

  std::filesystem::remove(link);
  std::filesystem::create_symlink(target, link);
  write_verifying_key(link, f.keys.vk);
  CHECK_FALSE(std::filesystem::is_symlink(link));
  CHECK(test::read_bytes(target) == std::vector<std::uint8_t>{1, 2, 3});
  CHECK(load_verifying_key(link) == f.keys.vk);
  // Nothing but the two files is left behind (no temporary files).
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path()),
                      std::filesystem::directory_iterator()) == 2);
}

TEST_CASE(
    "groth16/file_safety/an object of 100k keys parses in linear time and duplicates are still refused") {
  std::string text = "{";
  constexpr int keys = 100000;
  for (int i = 0; i < keys; ++i)
    text += (i ? ",\"key" : "\"key") + std::to_string(i) + "\":" + std::to_string(i);
  const std::string unique = text + "}";
  const auto start = std::chrono::steady_clock::now();
  const json::Value doc = json::parse(unique, "big.json");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK_MESSAGE(seconds < 5.0, "parsing 100k keys took " << seconds << " s");
  REQUIRE(doc.size() == keys);
  CHECK(doc.as_object()[keys - 1].first == "key" + std::to_string(keys - 1));
  CHECK(doc.as_object()[keys - 1].second.as_u64() == keys - 1);

  // The duplicate comes last, so every key before it is in the set when it arrives.
  const std::string twice = text + ",\"key5\":0}";
  const auto begin = std::chrono::steady_clock::now();
  const std::string message =
      test_support::error_message(Errc::bad_input, [&] { json::parse(twice, "big.json"); });
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count() < 5.0);
  CHECK(contains(
      message, "big.json: line 1, column " + std::to_string(unique.size() + 1) + ": duplicate key \"key5\""));
  // Nested objects keep their own keys.
  CHECK(json::parse(R"({"a": {"a": 1, "b": 2}, "b": {"a": 3}})").at("b").at("a").as_u64() == 3);
}

TEST_CASE("groth16/file_safety/quote_for_message bounds and escapes what it quotes") {
  CHECK(quote_for_message("plain") == "\"plain\"");
  CHECK(quote_for_message("say \"hi\"\\") == R"("say \"hi\"\\")");
  CHECK(quote_for_message("a\nb\tc\r") == R"("a\nb\tc\r")");
  CHECK(quote_for_message("\x1b[31mred\x1b[0m\x07\x7f") == R"("\u001b[31mred\u001b[0m\u0007\u007f")");
  CHECK(quote_for_message(std::string("nul\0byte", 8)) == R"("nul\u0000byte")");
  // Invalid UTF-8 byte by byte; valid UTF-8 kept; C1 controls and bidirectional overrides escaped.
  CHECK(quote_for_message("\xff\xc3(") == R"("\xff\xc3(")");
  CHECK(quote_for_message("\xc3\xa9t\xc3\xa9") == "\"\xc3\xa9t\xc3\xa9\"");
  CHECK(quote_for_message("\xc2\x9b"
                          "2J") == R"("\u009b2J")");
  CHECK(quote_for_message("abc\xe2\x80\xae"
                          "cba") == R"("abc\u202ecba")");
  // Characters that show as nothing: a byte-order mark, a zero-width space.
  CHECK(quote_for_message("\xef\xbb\xbf") == R"("\ufeff")");
  CHECK(quote_for_message("a\xe2\x80\x8b"
                          "b") == R"("a\u200bb")");
  // Cut at the bound, never inside a character, with the full length.
  const std::string huge(60u << 20, 'y');
  const std::string quoted = quote_for_message(huge);
  CHECK(quoted == "\"" + std::string(80, 'y') + "\"... (62914560 bytes)");
  CHECK(quote_for_message("ab\xc3\xa9", 3) == "\"ab\"... (4 bytes)");
  CHECK(quote_for_message("abc", 3) == "\"abc\"");
  CHECK(quote_for_message("", 0) == "\"\"");
  // In single quotes, ' and \ are what is escaped.
  CHECK(quote_for_message("it's \"x\"\\", 80, '\'') == R"('it\'s "x"\\')");
  CHECK(quote_for_message("cpu\nproofline: ok\x1b[31m", 80, '\'') == R"('cpu\nproofline: ok\u001b[31m')");
}

TEST_CASE("groth16/file_safety/printable_line keeps a message on one printable line") {
  CHECK(printable_line("plain 'x' \"y\" \\n") == "plain 'x' \"y\" \\n");  // quotes and escapes left alone
  CHECK(printable_line("a\nforged: line\x1b[2J\xff\xe2\x80\xae") == R"(a\nforged: line\u001b[2J\xff\u202e)");
  const std::string long_message(10000, 'm');
  CHECK(printable_line(long_message) == long_message);  // nothing cut: the quoted parts were, where made
}

TEST_CASE("groth16/file_safety/secure_wipe zeroes the bytes it is given") {
  std::uint8_t secret[64];
  for (std::size_t i = 0; i < sizeof secret; ++i) secret[i] = static_cast<std::uint8_t>(i + 1);
  secure_wipe(secret + 8, 32);
  for (std::size_t i = 0; i < sizeof secret; ++i) {
    CAPTURE(i);
    CHECK(std::size_t{secret[i]} == (i >= 8 && i < 40 ? 0 : i + 1));
  }
}
