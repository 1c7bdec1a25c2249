import NIOCore
import ScrollDaemon
import Testing

/// The counts systemd shows (`STATUS=`): every change told at once at a normal pace, at most
/// about ten a second under churn, and the last word always the counts as they are.
@Suite("Status for the service manager")
struct StatusTests {
    final class Recorder: DaemonStatusObserver {
        var told: [Int] = []
        func statusChanged(devices: Int, clients: Int) { told.append(clients) }
    }

    @Test func aFewChangesAreToldAtOnceAndAChurnAtTenASecondEndingOnTheTruth() throws {
        let daemon = try EmbeddedDaemon()
        let recorder = Recorder()
        daemon.core.status.observer = recorder
        var clients = try (0..<3).map { _ in try daemon.connect() }
        #expect(recorder.told == [1, 2, 3])

        // A burst: 40 more within the same instant. The bucket holds ten; the rest wait.
        clients += try (0..<40).map { _ in try daemon.connect() }
        #expect(recorder.told == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        daemon.advance(0.1)
        #expect(recorder.told.count == 11)
        #expect(recorder.told.last == 43)

        // Closing them all at 10 a second's pace or faster: still no more than the rate allows,
        // and once it is quiet the count told is the count.
        for client in clients.dropFirst() {
            try client.channel.close().wait()
            daemon.advance(0.01)
        }
        let toldWhileClosing = recorder.told.count - 11
        #expect(toldWhileClosing <= 6, "\(toldWhileClosing) status messages in 0.42 s")
        daemon.advance(1)
        #expect(recorder.told.last == 1)
        // Quiet: no timer left behind.
        let settled = recorder.told.count
        daemon.advance(10)
        #expect(recorder.told.count == settled)
    }
}
