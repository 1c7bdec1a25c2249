import Logging
import NIOCore
import NIOPosix
import ScrollDaemon
import ScrollDaemonPOSIX
#if canImport(Glibc)
import Glibc
#endif

/// docs/design.md §16 at start-up: the session's memfd and the connections a previous process left
/// in systemd's file descriptor store are taken back; from then on both are kept there.
extension Daemon {
    func keepSession(core: NIOLoopBound<DaemonCore>, loop: EventLoop) throws {
        guard FileDescriptorStore.isAvailable(environment: options.environment), let sender = notifier.sender else { return }
        let logger = self.logger
        let taken = FileDescriptorStore.takeBack()
        let keeper = FileDescriptorStore(logger: logger, sender: sender)

        for (fd, name) in taken.unnumbered {
            logger.error("restart: the stored descriptor \(name) names no connection (client-N, N from 1 to 2^53); it is closed")
            close(fd)
            keeper.forget(name: name)
        }
        let (restored, adopted) = adoptSession(taken)
        var file = adopted
        let size = SnapshotMemory.size(documentCapacity: 64 * 1024, slotCapacity: 64)
        // Only a memfd sealed against shrinking is kept in use: one cut short under the mapping
        // would end the daemon (SIGBUS) at its next publication. What it held was read already.
        if let adopted, !adopted.sealed || (adopted.mapping.count < size && adopted.grow(to: size) == nil) {
            if !adopted.sealed { logger.notice("restart: the stored session's file cannot be sealed against shrinking; the session moves to a new memfd") }
            adopted.release()
            file = nil
        }
        let isNew = file == nil
        if isNew { file = SessionMemoryFile.create(size: size) }
        guard let file else {
            logger.error("cannot create the session's memfd (\(String(cString: strerror(errno)))): a restart will lose the session")
            for client in taken.clients { close(client.fd) }
            return
        }
        let numbers = taken.clients.map(\.number)
        let session = restored
        let refused = try loop.submit {
            // Formatted anew and written back at once from what was read: the document then
            // describes this process' session (its connections' numbers, the containers kept).
            let memory = SnapshotMemory(formatting: file.mapping, documentCapacity: 64 * 1024, slotCapacity: 64) { file.grow(to: $0) }
            return core.value.keep(in: RestartStore(memory: memory, connections: keeper), restoring: session, connections: numbers)
        }.wait()
        if isNew {
            // One session in the store: one that could not be read goes.
            if taken.session != nil { keeper.forget(name: FileDescriptorStore.sessionName) }
            keeper.store(file.fd, name: FileDescriptorStore.sessionName)
        }

        // Numbers no connection has (logged by the core) are not taken back.
        let kept = taken.clients.filter { client in
            guard refused.contains(client.number) else { return true }
            close(client.fd)
            keeper.forget(number: client.number)
            return false
        }
        takeBack(kept, core: core, loop: loop, keeper: keeper)
    }

    /// The session's memfd a previous process left: what it holds (refused, with the reason,
    /// when it does not add up) and the memfd itself, kept in use (formatted anew when its
    /// session was refused).
    private func adoptSession(_ taken: FileDescriptorStore.TakenBack) -> ((snapshot: RestartSnapshot, slots: [SnapshotMemory.Slot?])?, SessionMemoryFile?) {
        guard let fd = taken.session else { return (nil, nil) }
        let adopted: SessionMemoryFile
        switch SessionMemoryFile.adopt(fd) {
        case .success(let file): adopted = file
        case .failure(let refusal):
            logger.error("restart: the stored session cannot be read (\(refusal.reason)); starting with an empty session")
            close(fd)
            return (nil, nil)
        }
        do throws(SnapshotError) {
            return (try SnapshotMemory.read(UnsafeRawBufferPointer(adopted.mapping)), adopted)
        } catch {
            logger.error("restart: the stored session is refused (\(error.message)); starting with an empty session, taking back \(taken.clients.count) connections")
            return (nil, adopted)
        }
    }

    /// The connections a previous process left: each becomes a channel with the pipeline of an
    /// accepted one, keeping its number; they carry on without a new `welcome`.
    private func takeBack(_ clients: [(fd: Int32, number: Int)], core: NIOLoopBound<DaemonCore>, loop: EventLoop, keeper: FileDescriptorStore) {
        let logger = self.logger
        for (fd, number) in clients {
            let bootstrap = ClientBootstrap(group: loop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try ClientPipeline.configure(channel, core: core.value, edge: .posix, restoring: number)
                    }
                }
            do {
                _ = try bootstrap.withConnectedSocket(fd).wait()
            } catch {
                logger.error("restart: connection \(number) cannot be taken back: \(error)")
                close(fd)
                keeper.forget(number: number)
            }
        }
    }
}
