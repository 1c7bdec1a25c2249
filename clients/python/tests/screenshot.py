"""Screenshots of an X display (`xwd -root`, read here: X Window Dump, version 7) and the
measurements the kiosk demo's test makes on them."""
import contextlib
import os
import struct
import subprocess

HEADER_FIELDS = (
    "header_size file_version pixmap_format pixmap_depth pixmap_width pixmap_height xoffset "
    "byte_order bitmap_unit bitmap_bit_order bitmap_pad bits_per_pixel bytes_per_line "
    "visual_class red_mask green_mask blue_mask bits_per_rgb colormap_entries ncolors "
    "window_width window_height window_x window_y window_bdrwidth").split()


class Image:
    """RGB pixels of a 24/32-bit TrueColor dump."""

    def __init__(self, data: bytes):
        header = dict(zip(HEADER_FIELDS, struct.unpack(">25I", data[:100])))
        assert header["file_version"] == 7, f"not an XWD 7 dump: {header['file_version']}"
        assert header["bits_per_pixel"] == 32, f"expected 32 bits per pixel, got {header['bits_per_pixel']}"
        self.width, self.height = header["pixmap_width"], header["pixmap_height"]
        self._stride = header["bytes_per_line"]
        self._order = "<" if header["byte_order"] == 0 else ">"
        self._masks = (header["red_mask"], header["green_mask"], header["blue_mask"])
        self._pixels = data[header["header_size"] + 12 * header["ncolors"]:]

    def pixel(self, x: int, y: int):
        (value,) = struct.unpack_from(self._order + "I", self._pixels, y * self._stride + 4 * x)
        return tuple((value & mask) >> ((mask & -mask).bit_length() - 1) for mask in self._masks)

    def rgb_bytes(self) -> bytes:
        return b"".join(bytes(self.pixel(x, y)) for y in range(self.height) for x in range(self.width))


def grab(display: str) -> Image:
    dump = subprocess.run(["xwd", "-root", "-silent", "-display", display], check=True,
                          stdout=subprocess.PIPE, timeout=60).stdout
    return Image(dump)


def run_length(image: Image, x: int, y: int, colour) -> int:
    """How many pixels from (x, y) down have `colour`."""
    n = 0
    while y + n < image.height and image.pixel(x, y + n) == colour:
        n += 1
    return n


@contextlib.contextmanager
def xvfb(directory, width: int, height: int):
    """An X display of its own (Xvfb, `width` x `height`, 24 bits) for a window test: its name."""
    read, write = os.pipe()
    log = os.path.join(str(directory), "xvfb.log")
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", f"{width}x{height}x24",
                               "-nolisten", "tcp"], pass_fds=(write,), stderr=open(log, "wb"))
    os.close(write)
    with os.fdopen(read) as numbers:
        number = numbers.readline().strip()
    assert number, f"Xvfb did not start: {open(log).read()}"
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(60)
