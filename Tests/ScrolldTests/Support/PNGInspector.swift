import Foundation

/// Reads a PNG the way an image viewer would: the IHDR's size, and every pixel's colour after
/// inflating the IDAT stream and undoing the row filters. Python's zlib does the inflating
/// (python3 is a dependency of the Makefile; Foundation has no inflate on Linux).
struct PNGInspector {
    var width: Int
    var height: Int
    /// Pixel count per RGB colour ("rrggbb"; alpha ignored).
    var colors: [String: Int]

    init(path: String) throws {
        let script = try Scrolld.temporaryFile(Self.script, name: "png-inspect.py")
        let result = try Tool.run("/usr/bin/env", ["python3", script, path])
        guard result.status == 0 else {
            throw Failure("decoding \(path) failed (\(result.status)): \(result.stderr)")
        }
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        guard let object, let width = object["width"] as? Int, let height = object["height"] as? Int,
            let colors = object["colors"] as? [String: Int]
        else { throw Failure("unexpected decoder output: \(result.stdout.prefix(200))") }
        self.width = width
        self.height = height
        self.colors = colors
    }

    /// Pixels within `tolerance` of `hex` on every channel (anti-aliased lines are rarely exact).
    func pixels(near hex: String, tolerance: Int) -> Int {
        let target = Self.rgb(hex)
        return colors.reduce(0) { sum, entry in
            let c = Self.rgb(entry.key)
            return zip(c, target).allSatisfy { abs($0 - $1) <= tolerance } ? sum + entry.value : sum
        }
    }

    static func rgb(_ hex: String) -> [Int] {
        let value = Int(hex.hasPrefix("#") ? String(hex.dropFirst()) : hex, radix: 16) ?? 0
        return [(value >> 16) & 255, (value >> 8) & 255, value & 255]
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static let script = #"""
        import json, struct, sys, zlib
        data = open(sys.argv[1], "rb").read()
        if data[:8] != b"\x89PNG\r\n\x1a\n":
            sys.exit("not a PNG signature")
        pos, idat, ihdr = 8, b"", None
        while pos < len(data):
            (length,) = struct.unpack(">I", data[pos:pos + 4])
            kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
            pos += 12 + length
            if kind == b"IHDR":
                ihdr = struct.unpack(">IIBBBBB", body)
            elif kind == b"IDAT":
                idat += body
            elif kind == b"IEND":
                break
        width, height, depth, ctype, _, _, interlace = ihdr
        if depth != 8 or interlace != 0 or ctype not in (2, 6):
            sys.exit("unsupported PNG: depth %d, colour type %d, interlace %d" % (depth, ctype, interlace))
        bpp = 3 if ctype == 2 else 4
        stride = width * bpp
        raw = zlib.decompress(idat)
        if len(raw) != height * (stride + 1):
            sys.exit("IDAT holds %d bytes, expected %d" % (len(raw), height * (stride + 1)))
        prev, counts, i = bytearray(stride), {}, 0
        for y in range(height):
            kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
            i += 1 + stride
            if kind == 1:
                for x in range(bpp, stride):
                    line[x] = (line[x] + line[x - bpp]) & 255
            elif kind == 2:
                line = bytearray((a + b) & 255 for a, b in zip(line, prev))
            elif kind == 3:
                for x in range(stride):
                    left = line[x - bpp] if x >= bpp else 0
                    line[x] = (line[x] + ((left + prev[x]) >> 1)) & 255
            elif kind == 4:
                for x in range(stride):
                    a = line[x - bpp] if x >= bpp else 0
                    b = prev[x]
                    c = prev[x - bpp] if x >= bpp else 0
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            elif kind != 0:
                sys.exit("bad filter %d in row %d" % (kind, y))
            for x in range(0, stride, bpp):
                key = line[x:x + 3].hex()
                counts[key] = counts.get(key, 0) + 1
            prev = line
        print(json.dumps({"width": width, "height": height, "colors": counts}))
        """#
}

/// Runs a tool other than scrolld (rsvg-convert, python3) and collects its output.
enum Tool {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> Result {
        let result = try Scrolld.runTool(executable, arguments)
        return Result(status: result.status, stdout: String(decoding: result.stdout, as: UTF8.self), stderr: result.stderr)
    }

    /// The absolute path of `name` on PATH, or nil.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
