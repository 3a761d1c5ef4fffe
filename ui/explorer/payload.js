/* The binary payloads Python sends (ui/explorer.encode, ui/lesson/deck.encode): four magic
   bytes, a uint32 header length, the header JSON, then float32 data. Pure: bytes in, data out. */

// leaf: pure (no page, clock or state); imports only leaves (tools/js/check.mjs)

/** {header, body}: the parsed header and an aligned copy of the bytes after it. */
export function readPayload(bytes, magic) {
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const got = String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]);
  if (got !== magic) throw new Error(`payload: ${got} is not ${magic}`);
  const size = data.getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + size)));
  return { header, body: bytes.slice(8 + size) };
}

/** The first `count` float32 numbers of an aligned byte copy. */
export function floatsOf(body, count) {
  return new Float32Array(body.buffer, body.byteOffset, count);
}
