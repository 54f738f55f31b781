// Where the database URL comes from, and that no message about it quotes the password.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <proofline/fleet/detail/conninfo.hpp>
#include <proofline/fleet/detail/pg.hpp>
#include <proofline/util/options.hpp>

namespace proofline::fleet {

namespace {

namespace fs = std::filesystem;

const std::string secret = "S3cret-xyzzy";

/// A URL file in a fresh folder, removed with it.
class UrlFile {
 public:
  explicit UrlFile(const std::string& text) {
    dir_ =
        fs::temp_directory_path() / ("pl-conninfo-" + std::to_string(getpid()) + "-" + std::to_string(++n_));
    fs::create_directories(dir_);
    std::ofstream(path()) << text;
  }
  ~UrlFile() { fs::remove_all(dir_); }
  fs::path path() const { return dir_ / "url"; }
  fs::path dir() const { return dir_; }

 private:
  static inline int n_ = 0;
  fs::path dir_;
};

/// What check_conninfo says of `url` (empty when it accepts it).
std::string refusal_of(const std::string& url) {
  try {
    detail::check_conninfo(url);
  } catch (const OptionError& e) {
    return e.what();
  }
  return {};
}

std::string error_of(const std::optional<fs::path>& file) {
  try {
    detail::resolve_conninfo(file);
  } catch (const OptionError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("fleet/conninfo/a URL file's first non-blank line, without a byte-order mark, blanks or quotes") {
  const std::string url = "postgresql://prover:" + secret + "@db.internal:5432/proofs?sslmode=disable";
  for (const std::string& text : {url + "\n", "\n  " + url + "  \r\nignored\n", "\xEF\xBB\xBF" + url,
                                  "\"" + url + "\"\n", "'" + url + "'", "\t\n\n" + url}) {
    UrlFile file(text);
    CHECK(detail::resolve_conninfo(file.path()) == url);
  }
}

TEST_CASE("fleet/conninfo/unusable URL files and URLs are option errors that never quote the URL") {
  UrlFile bad_token("postgresql://prover:Pa%zz" + secret + "@127.0.0.1/proofs");
  CHECK(error_of(bad_token.path()).find(secret) == std::string::npos);
  UrlFile blank("\n  \n");
  CHECK(error_of(blank.path()).find("has no URL") != std::string::npos);
  CHECK(error_of(blank.dir()).find("not a regular file (a directory)") != std::string::npos);
  // A FIFO is refused at once, not waited on for a writer.
  const auto fifo = blank.dir() / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(error_of(fifo).find("not a regular file (a FIFO)") != std::string::npos);
  CHECK(error_of(blank.dir() / "missing").find("No such file") != std::string::npos);
  // libpq quotes the token it cannot decode, or the whole URL: the password must not come out with it.
  for (const std::string& url : {"postgresql://prover:Pa%zz" + secret + "@127.0.0.1/proofs",
                                 "postgresql://prover:" + secret + "@[::1/proofs",
                                 " postgresql://prover:" + secret + "@127.0.0.1/proofs"}) {
    const std::string message = refusal_of(url);
    INFO(message);
    CHECK(message.find("cannot be parsed") != std::string::npos);
    CHECK(message.find(secret) == std::string::npos);
    CHECK(message.find("prover") == std::string::npos);
    CHECK_THROWS_AS(detail::Connection{url}, OptionError);
  }
  // Values libpq would check only when connecting, quoting them: a password typed where the port goes.
  for (const auto& [url, what] : {std::pair{"postgresql://prover@127.0.0.1:" + secret + "/proofs", "port"},
                                  std::pair{"postgresql://127.0.0.1/proofs?sslmode=" + secret, "sslmode"},
                                  std::pair{"host=127.0.0.1 connect_timeout=" + secret, "connect_timeout"}}) {
    const std::string message = refusal_of(url);
    INFO(message);
    CHECK(message.find(std::string("URL's ") + what + " is not a value libpq accepts") != std::string::npos);
    CHECK(message.find(secret) == std::string::npos);
  }
  CHECK(refusal_of("postgresql://prover@127.0.0.1:5432,127.0.0.2:5433/proofs?sslmode=verify-full").empty());
}

TEST_CASE("fleet/conninfo/a refused connection's message keeps host and user and withholds the password") {
  CHECK(detail::without_secrets("password authentication failed for user \"prover\" (" + secret + ")",
                                "host=db user=prover password=" + secret) ==
        "password authentication failed for user \"prover\" ((withheld))");
  CHECK(detail::without_quoted_text("invalid percent-encoded token: \"Pa%zz\"") ==
        "invalid percent-encoded token: \"(withheld)\"");
  // Port 1 refuses at once on this host: a real libpq connection error.
  try {
    detail::Connection db("postgresql://prover:" + secret + "@127.0.0.1:1/proofs?connect_timeout=2");
    FAIL("connected to port 1");
  } catch (const detail::ConnectionLost& e) {
    const std::string message = e.what();
    INFO(message);
    CHECK(message.find("127.0.0.1") != std::string::npos);
    CHECK(message.find(secret) == std::string::npos);
  }
}

}  // namespace proofline::fleet
