// JSON Patch (RFC 6902: add, remove, replace; JSON Pointer paths, "~1" for "/" and "~0"
// for "~"), as the party server sends a page each update once the page asked for deltas.
// The same as raceday.web.delta.apply_patch in Python (a browser test checks they agree):
// applyPatch(doc, ops) returns the patched document and leaves doc as it was (only the
// objects and arrays on the patched paths are copied); an op that does not fit throws a
// PatchError (the page then asks for the whole view again).

export class PatchError extends Error {
  constructor(message) {
    super(message);
    this.name = "PatchError";
  }
}

const own = (obj, key) => Object.prototype.hasOwnProperty.call(obj, key);
const isContainer = (v) => v !== null && typeof v === "object";

function parse(path) {
  if (path === "") return [];
  if (!path.startsWith("/")) throw new PatchError(`not a JSON Pointer: ${path}`);
  return path.slice(1).split("/").map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"));
}

// An array index of a pointer: digits without a leading zero, within the array (or one
// past its end, or "-", where `end` allows it).
function index(token, size, end) {
  if (token === "-" && end) return size;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError(`not an array index: ${token}`);
  const i = Number(token);
  if (i > size || (i === size && !end)) throw new PatchError(`array index ${i} out of range`);
  return i;
}

// A member set as the document's own (a key such as "__proto__" too, as JSON.parse does).
function put(obj, key, value) {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw new PatchError("a patch is an array");
  const copied = new Set();  // the containers this patch made: these it changes in place
  const mine = (value) => {
    if (!isContainer(value) || copied.has(value)) return value;
    const copy = Array.isArray(value) ? value.slice() : { ...value };
    copied.add(copy);
    return copy;
  };
  let root = doc;
  for (const op of ops) {
    if (!isContainer(op) || Array.isArray(op)) throw new PatchError("an operation is not an object");
    const { op: kind, path } = op;
    if (typeof path !== "string") throw new PatchError("an operation has no path");
    if (kind !== "add" && kind !== "remove" && kind !== "replace") {
      throw new PatchError(`unknown operation ${kind}`);
    }
    if (kind !== "remove" && !own(op, "value")) throw new PatchError(`${kind} without a value`);
    const tokens = parse(path);
    if (tokens.length === 0) {
      if (kind === "remove") throw new PatchError("cannot remove the whole document");
      root = op.value;
      copied.clear();
      continue;
    }
    root = mine(root);
    let parent = root;
    for (const token of tokens.slice(0, -1)) {
      if (Array.isArray(parent)) {
        const i = index(token, parent.length, false);
        parent = parent[i] = mine(parent[i]);
      } else if (isContainer(parent)) {
        if (!own(parent, token)) throw new PatchError(`no member ${token} on the path ${path}`);
        const child = mine(parent[token]);
        put(parent, token, child);
        parent = child;
      } else {
        throw new PatchError(`the path ${path} goes through a value`);
      }
    }
    const last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) {
      const i = index(last, parent.length, kind === "add");
      if (kind === "add") parent.splice(i, 0, op.value);
      else if (kind === "remove") parent.splice(i, 1);
      else parent[i] = op.value;
    } else if (isContainer(parent)) {
      if (kind !== "add" && !own(parent, last)) throw new PatchError(`no member ${last} to ${kind}`);
      if (kind === "remove") delete parent[last];
      else put(parent, last, op.value);
    } else {
      throw new PatchError(`the path ${path} ends in a value`);
    }
  }
  return root;
}
