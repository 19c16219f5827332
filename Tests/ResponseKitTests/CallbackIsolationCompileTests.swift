import Foundation
import Testing

/// What the compiler accepts and rejects of code that registers callbacks: a racy capture does not
/// compile, a main-actor presenter and an actor observe with no warning. Each case is type-checked
/// by the toolchain's `swiftc` against the ResponseKit module this test binary was built with.
struct CallbackIsolationCompileTests {
    /// Type-checks `source` against the built modules; returns the exit status and the output.
    static func typecheck(_ source: String) throws -> (status: Int32, output: String) {
        let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("responsekit-compile-\(UUID().uuidString).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swiftc", "-swift-version", "6", "-typecheck",
            "-I", buildDirectory.appendingPathComponent("Modules").path,
            "-Xcc",
            "-fmodule-map-file=" + buildDirectory.appendingPathComponent("CResponseKit.build/module.modulemap").path,
            file.path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    static var canTypecheck: Bool {
        #if os(Linux)
        let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return FileManager.default.fileExists(
            atPath: buildDirectory.appendingPathComponent("Modules/ResponseKit.swiftmodule").path)
        #else
        return false
        #endif
    }

    @Test(.enabled(if: canTypecheck, "needs the build folder's modules (Linux, swift build layout)"))
    func aCallbackCapturingUnprotectedState_doesNotCompile() throws {
        let (status, output) = try Self.typecheck(
            """
            import ResponseKit
            final class Counter { var n = 0 }
            func racy() {
                let (response, resolver) = Response<Int>.pending(on: .queue(.global()))
                let counter = Counter()
                response.onCompletion { value in counter.n += value }   // runs on another thread
                resolver.succeed(1)
                counter.n += 1                                          // this thread, same object
            }
            """
        )
        #expect(status != 0)
        #expect(output.contains("non-Sendable type 'Counter'"), "\(output)")
    }

    @Test(.enabled(if: canTypecheck, "needs the build folder's modules (Linux, swift build layout)"))
    func presentersActorsAndSendableCallbacks_compileWithoutWarnings() throws {
        let (status, output) = try Self.typecheck(
            """
            import ResponseKit
            import Synchronization

            @MainActor final class ProfilePresenter {
                var title = ""
                var errors = 0
                func present(_ response: Response<String>) {
                    response.mainActor
                        .onCompletion { name in self.title = name }
                        .onFailure { _ in self.errors += 1 }
                }
            }

            actor Totals {
                var total = 0
                func observe(_ response: Response<Int>) {
                    response.onCompletion(isolatedTo: self) { totals, value in totals.total += value }
                }
            }

            final class Sink: Sendable {
                let seen = Atomic(0)
            }

            func nonisolatedObserver(_ response: Response<Int>, sink: Sink) {
                response
                    .onCompletion { value in sink.seen.add(value, ordering: .relaxed) }
                    .onFailure { error in print(error) }
                    .onCompletion(on: .immediate) { _ in }
            }
            """
        )
        #expect(status == 0, "\(output)")
        #expect(!output.contains("warning:"), "\(output)")
    }
}
