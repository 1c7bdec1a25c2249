import CSystemd

/// A notify socket that is no Unix socket (systemd's `vsock:` forms) is left to libsystemd.
///
/// Apart from ``NotificationSocket``'s file: a file that imports CSystemd and names Glibc's
/// `SOCK_…` constants made them unfindable in the module's other files in a release build
/// (whole-module: the constants were then taken as CSystemd's, which those files do not import).
extension NotificationSocket {
    func sendThroughLibsystemd(_ text: String, descriptor: Int32?) -> Outcome {
        var descriptors = descriptor.map { [$0] } ?? []
        let result = sd_pid_notify_with_fds(0, 0, text, &descriptors, UInt32(descriptors.count))
        return result > 0 ? .sent : .failed(-result)
    }
}
