// One container as this client last described it (docs/design.md §20): its settings with
// every configure folded in, and its rows as runs of equal heights with the edits applied, so
// memory grows with the rows' variety, never with the number of calls. A reconnection to a new
// daemon sends `lines()` to create it again.

export class Description {
  constructor(container) {
    this.container = container;
    this.settings = {};
    this.rows = null;   // the rows' keys but count and heights
    this.runs = [];     // [height or null (the rows' own height), count]
  }

  fold(request) {
    for (const [key, value] of Object.entries(request)) {
      if (["op", "id", "animation", "container"].includes(key)) continue;
      if (key !== "rows") {
        this.settings[key] = value;
      } else if (value === null) {
        this.rows = null;
        this.runs = [];
      } else if ("insert" in value || "remove" in value) {
        this.#edit(value);
      } else {
        const { count = 0, heights, ...rest } = value;
        this.rows = rest;
        this.runs = [];
        if (heights) for (const height of heights) this.#append(height, 1);
        else if (count) this.runs = [[null, count]];
      }
    }
  }

  #append(height, count) {
    const last = this.runs.at(-1);
    if (last && last[0] === height) last[1] += count;
    else if (count) this.runs.push([height, count]);
  }

  /** The index of the run that starts at row `at` (splitting one that spans it). */
  #split(at) {
    let row = 0;
    for (let index = 0; index < this.runs.length; index++) {
      const [height, count] = this.runs[index];
      if (row === at) return index;
      if (at < row + count) {
        this.runs.splice(index, 1, [height, at - row], [height, row + count - at]);
        return index + 1;
      }
      row += count;
    }
    return this.runs.length;
  }

  #edit(edit) {
    if (edit.insert) {
      const { at, heights, height = null, count = 1 } = edit.insert;
      const index = this.#split(at);
      const added = heights ? heights.map((h) => [h, 1]) : [[height, count]];
      this.runs.splice(index, 0, ...added);
    } else {
      const { at, count } = edit.remove;
      const start = this.#split(at);
      const end = this.#split(at + count);
      this.runs.splice(start, end - start);
    }
    const runs = this.runs;
    this.runs = [];
    for (const [height, count] of runs) this.#append(height, count);
  }

  /** The requests that create it as it is now: one configure, then one insert per run. */
  lines() {
    const request = { op: "configure", container: this.container, ...this.settings };
    if (this.rows === null) return [request];
    const runs = [...this.runs];
    const first = runs.length && runs[0][0] === null ? runs.shift() : [null, 0];
    request.rows = { ...this.rows, count: first[1] };
    const lines = [request];
    let at = first[1];
    for (const [height, count] of runs) {
      const insert = { at, count };
      if (height !== null) insert.height = height;
      lines.push({ op: "configure", container: this.container, rows: { insert } });
      at += count;
    }
    return lines;
  }
}
