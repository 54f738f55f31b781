// Reading why a PostgreSQL server refused a connection, whatever language the server speaks: its messages
// follow its lc_messages, so the words of a refusal cannot tell a password that will never work from a server
// that is starting up. Its SQLSTATE can, and libpq writes it into the message with PQERRORS_VERBOSE.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace proofline::fleet::detail {

struct ServerRefusal {
  std::string message;  ///< as libpq's default verbosity would read: no codes, no LOCATION lines
  std::vector<std::string> sqlstates;  ///< one for each server that answered with an error, in order
};

/// Splits a connection error that libpq wrote with PQERRORS_VERBOSE ("... failed: FATAL:  28P01: password
/// authentication failed ...\nLOCATION:  auth_failed, auth.c:326") into the message without the codes and
/// LOCATION lines, and the codes.
ServerRefusal read_server_refusal(std::string_view verbose_message);

/// Whether one of the codes refuses who asked rather than the moment: class 28 (invalid authorization: a
/// password, a role, an address pg_hba.conf does not admit) or 3D000 (no such database). Retrying cannot mend
/// either.
bool refuses_for_good(const std::vector<std::string>& sqlstates);

}  // namespace proofline::fleet::detail
