import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { deferModuleScripts } from './deferred-scripts.server';

/**
 * A rendered page as the web server sends it (decision 090). Every page begins with the same bytes: the
 * document's head up to the end of the inline stylesheet (decision 025), about 30 KB of a 35–65 KB page.
 * React renders the stylesheet as a short mark; the stylesheet's text is put in its place here, once per
 * page as a byte copy, and compressed once per build: a page's gzip is the head's deflate (kept, ended by a
 * sync flush so that more blocks may follow) and the page's own bytes deflated with the head as their
 * dictionary (they may still point back into it, as one stream would), with the CRC-32 and length of the
 * whole. The page's own bytes alone go through the module-script rewrite (decision 028) and zlib.
 */

/** What React renders inside the inline <style> (root.tsx): the stylesheet's text takes its place here. */
export const INLINE_CSS_MARK = '/*inline-css*/';
const STYLE_OPEN = '<style id="app-css">';
const MARKED_STYLE = `${STYLE_OPEN}${INLINE_CSS_MARK}</style>`;
/** The page's own bytes are deflated at zlib's default level, as the compression middleware does. */
const LEVEL = 6;
/** deflate looks back at most 32 KB. */
const WINDOW = 32 * 1024;
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]); // deflate, no name, no time, Unix
const deflateRaw = promisify(zlib.deflateRaw);

interface Head {
  /** The bytes every page begins with: the head up to and including the inline stylesheet. */
  bytes: Buffer;
  /** Their raw deflate, not final (a sync flush ends it on a byte boundary). */
  deflated: Buffer;
  crc: number;
  /** The last 32 KB of bytes: what a decoder holds when the page's own blocks begin. */
  dictionary: Buffer | undefined;
}

const EMPTY_HEAD: Head = { bytes: Buffer.alloc(0), deflated: Buffer.alloc(0), crc: 0, dictionary: undefined };
/** The head of the last page, by the text React rendered before the stylesheet (the same on every page). */
let lastHead: { before: string; css: string; head: Head } | undefined;

function headOf(before: string, css: string): Head {
  if (lastHead?.before === before && lastHead.css === css) return lastHead.head;
  const bytes = Buffer.from(`${before}${STYLE_OPEN}${css}</style>`, 'utf8');
  const head: Head = {
    bytes,
    deflated: zlib.deflateRawSync(bytes, { level: zlib.constants.Z_BEST_COMPRESSION, finishFlush: zlib.constants.Z_SYNC_FLUSH }),
    crc: zlib.crc32(bytes),
    dictionary: bytes.subarray(Math.max(0, bytes.length - WINDOW)),
  };
  lastHead = { before, css, head };
  return head;
}

export class RenderedDocument {
  constructor(
    private readonly head: Head,
    /** The page's own bytes, after the head. */
    readonly rest: Buffer,
  ) {}

  /** The page, uncompressed. */
  bytes(): Buffer {
    return this.head.bytes.length ? Buffer.concat([this.head.bytes, this.rest]) : this.rest;
  }

  /** The page as one gzip member; only the page's own bytes are compressed now. */
  async gzip(): Promise<Buffer> {
    const { head, rest } = this;
    const deflated = await deflateRaw(rest, head.dictionary ? { level: LEVEL, dictionary: head.dictionary } : { level: LEVEL });
    const trailer = Buffer.allocUnsafe(8);
    trailer.writeUInt32LE(zlib.crc32(rest, head.crc), 0);
    trailer.writeUInt32LE((head.bytes.length + rest.length) % 2 ** 32, 4);
    return Buffer.concat([GZIP_HEADER, head.deflated, deflated, trailer]);
  }
}

/**
 * The page React rendered, its module scripts held back (decision 028) and the stylesheet's text (`css`,
 * null when none is inlined) in place of the mark. A page without the mark is sent as rendered.
 */
export function renderedDocument(html: string, css: string | null): RenderedDocument {
  const at = css === null ? -1 : html.indexOf(MARKED_STYLE);
  if (at < 0) return new RenderedDocument(EMPTY_HEAD, Buffer.from(deferModuleScripts(html), 'utf8'));
  const rest = html.slice(at + MARKED_STYLE.length);
  return new RenderedDocument(headOf(html.slice(0, at), css!), Buffer.from(deferModuleScripts(rest), 'utf8'));
}

const documents = new WeakMap<Response, RenderedDocument>();

/** The answer Remix passes on (its body stays empty) and the page the web server sends for it. */
export function documentResponse(document: RenderedDocument, init: ResponseInit): Response {
  const response = new Response(null, init);
  documents.set(response, document);
  return response;
}

/** The page of a document answer made by documentResponse; undefined for any other answer. */
export function documentOf(response: Response): RenderedDocument | undefined {
  return documents.get(response);
}
