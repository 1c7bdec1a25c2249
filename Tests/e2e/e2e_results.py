"""The PASS/FAIL lines the real-kernel guests' checkers append to results.txt, which the guest
script counts: one line a check, the details of a failure indented beneath it."""
import os
import sys


class Results:
    def __init__(self, workdir, always_print_details=False):
        self.file = open(os.path.join(workdir, "results.txt"), "a")
        # Print a passing check's details too (its own log then shows what it saw).
        self.always_print_details = always_print_details

    def result(self, ok, what, details=""):
        line = "%s: %s" % ("PASS" if ok else "FAIL", what)
        indented = ["    " + d for d in str(details).splitlines()]
        self.file.write("\n".join([line] + ([] if ok else indented)) + "\n")
        self.file.flush()
        print("\n".join([line] + (indented if self.always_print_details or not ok else [])))
        sys.stdout.flush()

    def check(self, what, fn):
        """Runs `fn` (returning ok and details); a check that crashes fails, with the reason."""
        try:
            ok, details = fn()
        except Exception as e:
            ok, details = False, "%s: %s" % (type(e).__name__, e)
        self.result(ok, what, details)
