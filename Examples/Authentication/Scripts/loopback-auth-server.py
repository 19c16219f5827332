#!/usr/bin/env python3
"""The Authentication example's wire protocol (Examples/Authentication/README.md), served on
loopback, for load runs of the HTTP gateway: `ResponseKitDemoLoad signin --auth-server URL`.

    python3 Examples/Authentication/Scripts/loopback-auth-server.py [PORT]   # prints its URL

HTTP/1.1 with keep-alive, a thread per connection, Python's standard library only. Accounts as
the fake backend's: ada@example.com / secret, grace@example.com / cobol, and the disabled
charles@example.com / engine. It answers at once, so a load run measures the network path: the
gateway (URLSession), loopback TCP and this server's own cost.
"""
import json
import secrets
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ACCOUNTS = {
    "ada@example.com": ("secret", {"id": 1, "name": "Ada Lovelace", "email": "ada@example.com"}, True),
    "grace@example.com": ("cobol", {"id": 2, "name": "Grace Hopper", "email": "grace@example.com"}, True),
    "charles@example.com": ("engine", {"id": 3, "name": "Charles Babbage", "email": "charles@example.com"}, False),
}
TOKENS = {}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # The headers and the body go out as two writes: with Nagle's algorithm on, the second waits
    # for the client's delayed acknowledgement of the first, 40 ms on Linux, every request.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass  # quiet: thousands of requests a second

    def answer(self, status, body=None):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", 0))
        try:
            request = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            return self.answer(400)
        if not self.path.endswith("/token"):
            return self.answer(404)
        account = ACCOUNTS.get(request.get("email"))
        if account is None or account[0] != request.get("password"):
            return self.answer(401)
        if not account[2]:
            return self.answer(403)
        token = secrets.token_hex(16)
        TOKENS[token] = account[1]
        self.answer(200, {"token": token})

    def do_GET(self):
        if not self.path.endswith("/user"):
            return self.answer(404)
        token = self.headers.get("Authorization", "").removeprefix("Bearer ")
        user = TOKENS.pop(token, None)
        self.answer(200, user) if user else self.answer(401)


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0), Handler)
    server.daemon_threads = True
    print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()
