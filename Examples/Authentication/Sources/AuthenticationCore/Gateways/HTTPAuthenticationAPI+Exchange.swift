import Foundation
import ResponseKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The data task is the handle `Response.wrap` cancels with the response.
nonisolated extension URLSessionTask: ResponseCancellable {}

/// A status and a body: what the gateway needs of an HTTP answer.
nonisolated struct HTTPReply: Sendable {
    /// The request, for messages: `POST /token`.
    let request: String
    /// The HTTP status code.
    let status: Int
    /// The body, possibly empty.
    let body: Data

    /// The body decoded as `Body`, or ``AuthenticationError/malformedResponse(_:)`` saying what is
    /// wrong with it in a few words.
    func decode<Body: Decodable>(_: Body.Type) throws(AuthenticationError) -> Body {
        do {
            return try JSONDecoder().decode(Body.self, from: body)
        } catch let DecodingError.keyNotFound(key, _) {
            throw .malformedResponse("\(request): no field \"\(key.stringValue)\"")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw .malformedResponse("\(request): the field \"\(field)\" has the wrong type")
        } catch {
            throw .malformedResponse("\(request): the body is not JSON")
        }
    }
}

/// `{"token": "…"}`, the token endpoint's answer.
nonisolated struct TokenBody: Decodable {
    let token: String
}

/// `{"id": 1, "name": "…", "email": "…"}`, the user endpoint's answer.
nonisolated struct UserBody: Decodable {
    let id: Int
    let name: String
    let email: String
}

extension HTTPAuthenticationAPI {
    /// Sends `request` with the session; the response fails with an ``AuthenticationError`` when
    /// no HTTP answer came in time, and cancelling it (or the timeout) cancels the task.
    ///
    /// Built on `Response.wrap`: the data task's completion handler finishes the response, and the
    /// task, returned as the cancellation handle, is cancelled with it.
    func send(_ request: URLRequest) -> Response<HTTPReply> {
        let described = "\(request.httpMethod ?? "GET") \(request.url?.path ?? "/")"
        let server = Self.hostAndPort(of: request.url)
        let session = session
        let exchange = Response<HTTPReply>.wrap(on: executor) { handler in
            let task = session.dataTask(with: request) { data, answer, error in
                handler(Self.reply(to: described, from: server, data: data, answer: answer, error: error))
            }
            task.resume()
            return task
        }
        return exchange.timeout(after: timeout, scheduler: scheduler)
            .mapError { error in (error as? ResponseError) == .deadlineExceeded ? AuthenticationError.timedOut : error }
    }

    /// What the data task's completion handler was given, as a reply or an error.
    static func reply(
        to request: String, from server: String, data: Data?, answer: URLResponse?, error: (any Error)?
    ) -> Result<HTTPReply, any Error> {
        if let error { return .failure(failure(for: error, server: server)) }
        guard let answer = answer as? HTTPURLResponse else {
            return .failure(AuthenticationError.malformedResponse("\(request): not an HTTP answer"))
        }
        return .success(HTTPReply(request: request, status: answer.statusCode, body: data ?? Data()))
    }

    /// The error the use case sees for what `URLSession` reported.
    static func failure(for error: any Error, server: String) -> any Error {
        // Read as an NSError: corelibs Foundation reports NSURLErrorDomain errors that are not
        // always bridged to URLError.
        let error = error as NSError
        guard error.domain == NSURLErrorDomain else { return AuthenticationError.unreachable("\(server): \(error)") }
        let reason: String
        switch URLError.Code(rawValue: error.code) {
        case .timedOut: return AuthenticationError.timedOut  // the session's backstop
        case .cancelled: return CancellationError()  // only after `cancel()`, which the response already reports
        case .cannotConnectToHost: reason = "connection refused"
        case .cannotFindHost, .dnsLookupFailed: reason = "unknown host"
        case .networkConnectionLost: reason = "the connection was lost"
        case .notConnectedToInternet: reason = "no network"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            reason = "the secure connection failed"
        default: reason = error.localizedDescription
        }
        return AuthenticationError.unreachable("\(server): \(reason)")
    }

    /// `host:port` of `url`, with the scheme's default port when it names none.
    static func hostAndPort(of url: URL?) -> String {
        guard let url, let host = url.host else { return "?" }
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
