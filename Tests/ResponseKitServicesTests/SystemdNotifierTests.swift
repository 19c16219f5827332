import Testing

@testable import ResponseKitServices

#if canImport(Glibc)
import Glibc
#endif

#if os(Linux)
/// The `sd_notify` protocol against real datagram sockets bound by the test: a path under /tmp
/// and an abstract name.
struct SystemdNotifierTests {
    @Test(arguments: [NotificationSocket.Kind.path, .abstract])
    func sendsEachMessageAsOneDatagram_ofNewlineSeparatedAssignments(kind: NotificationSocket.Kind) throws {
        let supervisor = try NotificationSocket(kind)
        let notifier = try #require(try SystemdNotifier(environment: supervisor.environment))

        try notifier.send(["READY=1", "STATUS=running"])
        try notifier.send(["WATCHDOG=1"])

        #expect(supervisor.nextBlocking() == "READY=1\nSTATUS=running")
        #expect(supervisor.nextBlocking() == "WATCHDOG=1")
        #expect(notifier.socketName == supervisor.name)
    }

    @Test func aNewlineInsideAnAssignment_becomesASpace_soItCannotStartAnother() throws {
        let supervisor = try NotificationSocket(.path)
        let notifier = try #require(try SystemdNotifier(environment: supervisor.environment))

        try notifier.send(["STATUS=failed: line one\nREADY=1"])

        #expect(supervisor.nextBlocking() == "STATUS=failed: line one READY=1")
    }

    @Test func thereIsNoNotifier_whenNotifySocketIsUnsetOrEmpty() throws {
        #expect(try SystemdNotifier(environment: [:]) == nil)
        #expect(try SystemdNotifier(environment: ["NOTIFY_SOCKET": ""]) == nil)
    }

    @Test(arguments: ["vsock:2:1234", "relative/notify", "/" + String(repeating: "x", count: 107)])
    func aNameNoUnixSocketAddressCanHold_isRefused(name: String) {
        #expect(throws: SystemdNotifier.Failure.self) { try SystemdNotifier(environment: ["NOTIFY_SOCKET": name]) }
    }

    @Test func anAbstractNameMayFillTheAddress_andAPathItsNULLess() throws {
        // sun_path holds 108 bytes: an abstract name has no terminating NUL, a path has one.
        #expect(try SystemdNotifier(environment: ["NOTIFY_SOCKET": "@" + String(repeating: "x", count: 107)]) != nil)
        #expect(try SystemdNotifier(environment: ["NOTIFY_SOCKET": "/" + String(repeating: "x", count: 106)]) != nil)
    }

    @Test func aSendThatNobodyReceives_failsWithTheReason() throws {
        let notifier = try #require(try SystemdNotifier(environment: ["NOTIFY_SOCKET": "/tmp/rks-nobody-listens"]))

        let error = #expect(throws: SystemdNotifier.Failure.self) { try notifier.send(["READY=1"]) }

        #expect(error?.description == "could not tell /tmp/rks-nobody-listens \"READY=1\": No such file or directory")
    }
}
#endif
