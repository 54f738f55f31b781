// Asks the server to cancel the statement running on a connection, waiting for the server's answer a bounded
// time. PQcancel opens a connection of its own to the server and waits until the server closes it; a server
// that is frozen (or a host that drops packets) never does, so the request runs on a thread of its own, left
// behind when the wait is over.
#pragma once

#include <chrono>

struct pg_conn;

namespace proofline::fleet::detail {

/// Sends the cancel request for the statement in flight on `conn`; true when the server took it within
/// `patience`. The connection itself is not touched (PQgetCancel copies what the request needs).
bool request_cancel(pg_conn* conn, std::chrono::milliseconds patience);

}  // namespace proofline::fleet::detail
