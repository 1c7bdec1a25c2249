import Foundation

/// Which process holds the other end of a daemon's client connections, as `ss -xp` tells it
/// (the kernel's sock_diag: /proc lists a socket's inode, not its peer's).
enum SocketPeers {
    /// The descriptors of process `pid` connected to the daemon listening at `path`: the other
    /// ends of the connections it accepted there. (Not the stream socket Foundation's `Process`
    /// leaves a child it spawned, whose closing tells the parent the child exited.)
    static func held(by pid: Int32, connectedTo path: String) -> [Int32] {
        guard let result = try? Scrolld.runTool("/usr/bin/ss", ["-xanp"]), result.status == 0 else { return [] }
        // u_str ESTAB RECV SEND LOCAL-PATH LOCAL-INODE PEER-PATH PEER-INODE users:(("name",pid=P,fd=F),…)
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true)
        }
        let accepted = Set(lines.filter { $0.count >= 9 && $0[0] == "u_str" && $0[1] == "ESTAB" && $0[4] == path }.map { $0[5] })
        var held: [Int32] = []
        for fields in lines where fields.count >= 9 && accepted.contains(fields[7]) {
            for user in fields[8...].joined(separator: " ").split(separator: "(").dropFirst() where user.contains("pid=\(pid),") {
                if let range = user.range(of: "fd="), let fd = Int32(user[range.upperBound...].prefix { $0.isNumber }) { held.append(fd) }
            }
        }
        return held
    }
}
