package render

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"hash/maphash"
	"image"
	"image/color"
	"io"
	"sync"

	"github.com/klauspost/compress/flate"
)

// pngLevel is the deflate level of the pictures. The compressor is
// klauspost/compress's, not the standard library's: at the same level it is
// 1.8 times as fast for pictures 2% larger, and compression is most of the
// bot's CPU per move (strategoload). Level 5 keeps every board within
// 25 KB with the texts of every language (TestBoardSizeLimit,
// BenchmarkBoardSizes); see pngEncoder for why most bands are not compressed
// at all.
const pngLevel = 6

// bandCacheBytes bounds the compressed bands kept for reuse: about 1,500
// pictures' worth, the last picture of each of 500 matches' three viewers.
const bandCacheBytes = 32 << 20

// pngEncoder writes paletted images of one palette as 8-bit indexed PNGs
// with no row filters (they do not help indexed pictures).
//
// Compression is most of the cost of a picture, and a move changes only a few
// parts of its three pictures: the two rows of squares of the move, the
// status, the last-move lines, at times a tray. So the encoder compresses
// the picture in horizontal bands (cuts), each its own deflate stream ended
// by a sync flush, and keeps the compressed bands by content: a band that was
// compressed before, in any picture, is copied, and only new bands are
// compressed. Concatenated sync-flushed streams are one valid deflate stream,
// and the zlib checksum of the whole is combined from the bands' own
// (adler32Combine), so a copied band costs no pass over its pixels but the
// hashing of its key. The bytes written do not depend on what was kept: a
// band compresses to the same bytes whenever it is compressed.
//
// A band is found by a 128-bit hash of its pixels under two random seeds, so
// that no two different bands share a key in practice (a collision would show
// one picture's band in another), or by a key the caller gives, which must
// name its pixels exactly: a board's rows of squares are named by their tiles
// (rowKey) and its players' strips by their texts and trays (appendStrip),
// which spares hashing most of a board's pixels, and drawing the bands that
// are found (see Renderer.encodeLazily).
type pngEncoder struct {
	plte   []byte // the palette as PLTE chunk data
	cuts   []int  // the rows where a band ends, ascending, the last the height
	seeds  [2]maphash.Seed
	cache  *bandCache
	states sync.Pool // *pngState
}

type pngState struct {
	raw, band, idat, out bytes.Buffer
	fw                   *flate.Writer
}

// newPNGEncoder returns an encoder for pictures of pal whose bands end at
// cuts (rows, ascending); a picture's rows beyond the last cut are one band.
func newPNGEncoder(pal color.Palette, cuts []int, cacheBytes int) (*pngEncoder, error) {
	if len(pal) == 0 || len(pal) > 256 {
		return nil, fmt.Errorf("render: a PNG palette of %d colours", len(pal))
	}
	e := &pngEncoder{cuts: cuts, seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}, cache: newBandCache(cacheBytes)}
	for _, c := range pal {
		rgba := color.RGBAModel.Convert(c).(color.RGBA)
		e.plte = append(e.plte, rgba.R, rgba.G, rgba.B)
	}
	return e, nil
}

// contentKey is the key of a band drawn from b and nothing else (n = -2
// keeps these keys apart from row keys and from the hashes of pixels).
func (e *pngEncoder) contentKey(b []byte) bandKey {
	return bandKey{maphash.Bytes(e.seeds[0], b), maphash.Bytes(e.seeds[1], b), -2}
}

// The n of the keys of bands that show ranks only their picture's viewer
// knows (see Options.Secret).
const (
	secretKeyN = -3 // found only with the same secret and pieces (secretKey)
	unkeptN    = -4 // no secret: compressed every time, never kept
)

// secretKey is the key of a row of squares that k names and that shows
// ranks only its viewer knows: k hashed with secret, so that only a picture
// given the same secret finds it, and with pieces, the squares its pieces of
// hidden rank started on, so that two pictures share it only when the same
// pieces stand in it. Found by its tiles alone, the row of one piece would
// be found again for another piece of the same rank on its square, which
// would tell whether two hidden pieces are alike.
func (e *pngEncoder) secretKey(k bandKey, secret uint64, pieces *[10]byte) bandKey {
	var b [34]byte
	binary.LittleEndian.PutUint64(b[0:], k.h1)
	binary.LittleEndian.PutUint64(b[8:], k.h2)
	binary.LittleEndian.PutUint64(b[16:], secret)
	copy(b[24:], pieces[:])
	return bandKey{maphash.Bytes(e.seeds[0], b[:]), maphash.Bytes(e.seeds[1], b[:]), secretKeyN}
}

// zlibHeader is a zlib stream's header: deflate with a 32 KB window.
var zlibHeader = []byte{0x78, 0x9c}

// finalBlock is an empty final deflate block (fixed codes, end of block),
// which ends the stream after the bands' sync flushes.
var finalBlock = []byte{0x03, 0x00}

// encode writes img, whose palette must be the encoder's, as a PNG. keys[i],
// when set (n != 0), is the key of band i (n = unkeptN: a band compressed
// and never kept); draw, when not nil, paints a keyed band on img, which
// need not hold its pixels until the band is not found compressed (so most
// bands of a move's pictures are never drawn).
func (e *pngEncoder) encode(w io.Writer, img *image.Paletted, keys []bandKey, draw func(band int)) error {
	st, _ := e.states.Get().(*pngState)
	if st == nil {
		fw, err := flate.NewWriter(nil, pngLevel)
		if err != nil {
			return fmt.Errorf("render: deflate: %w", err)
		}
		st = &pngState{fw: fw}
	}
	defer e.states.Put(st)
	b := img.Rect
	st.idat.Reset()
	st.idat.Write(zlibHeader)
	sum := uint32(1) // the adler32 of nothing
	top := b.Min.Y
	for i := 0; top < b.Max.Y; i++ {
		bottom := b.Max.Y
		if i < len(e.cuts) {
			bottom = min(b.Min.Y+e.cuts[i], b.Max.Y)
		}
		if bottom <= top {
			continue
		}
		// The band as the PNG stream has it: a "None" filter byte before every row.
		rawOf := func() []byte {
			st.raw.Reset()
			for y := top; y < bottom; y++ {
				off := img.PixOffset(b.Min.X, y)
				st.raw.WriteByte(0)
				st.raw.Write(img.Pix[off : off+b.Dx()])
			}
			return st.raw.Bytes()
		}
		var raw []byte
		var key bandKey
		if i < len(keys) && keys[i].n != 0 {
			key = keys[i]
		} else {
			raw = rawOf()
			key = bandKey{maphash.Bytes(e.seeds[0], raw), maphash.Bytes(e.seeds[1], raw), len(raw)}
		}
		kept := key.n != unkeptN
		var bd band
		ok := false
		if kept {
			bd, ok = e.cache.get(key)
		} else {
			e.cache.missed()
		}
		if !ok {
			if raw == nil {
				if draw != nil {
					draw(i)
				}
				raw = rawOf()
			}
			st.band.Reset()
			st.fw.Reset(&st.band)
			// Writes to a bytes.Buffer cannot fail.
			_, _ = st.fw.Write(raw)
			_ = st.fw.Flush()
			bd = band{data: bytes.Clone(st.band.Bytes()), sum: adler32.Checksum(raw), n: len(raw)}
			if kept {
				e.cache.put(key, bd)
			}
		}
		st.idat.Write(bd.data)
		sum = adler32Combine(sum, bd.sum, bd.n)
		top = bottom
	}
	st.idat.Write(finalBlock)
	st.idat.Write(binary.BigEndian.AppendUint32(nil, sum))
	st.out.Reset()
	st.out.WriteString("\x89PNG\r\n\x1a\n")
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(b.Dx()))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(b.Dy()))
	ihdr[8], ihdr[9] = 8, 3 // 8 bits per index, indexed colour
	writeChunk(&st.out, "IHDR", ihdr[:])
	writeChunk(&st.out, "PLTE", e.plte)
	writeChunk(&st.out, "IDAT", st.idat.Bytes())
	writeChunk(&st.out, "IEND", nil)
	if _, err := w.Write(st.out.Bytes()); err != nil {
		return fmt.Errorf("render: writing PNG: %w", err)
	}
	return nil
}

// adlerMod is the modulus of adler32.
const adlerMod = 65521

// adler32Combine returns the adler32 checksum of a stream made of a part
// whose checksum is a and a part of n bytes whose checksum is b (zlib's
// adler32_combine).
func adler32Combine(a, b uint32, n int) uint32 {
	rem := uint32(n % adlerMod)
	s1 := a & 0xffff
	s2 := rem * s1 % adlerMod
	s1 += (b & 0xffff) + adlerMod - 1
	s2 += (a >> 16) + (b >> 16) + adlerMod - rem
	if s1 >= adlerMod {
		s1 -= adlerMod
	}
	if s1 >= adlerMod {
		s1 -= adlerMod
	}
	if s2 >= adlerMod<<1 {
		s2 -= adlerMod << 1
	}
	if s2 >= adlerMod {
		s2 -= adlerMod
	}
	return s2<<16 | s1
}

// writeChunk appends one PNG chunk: length, type, data and CRC.
func writeChunk(out *bytes.Buffer, kind string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	out.Write(n[:])
	start := out.Len()
	out.WriteString(kind)
	out.Write(data)
	binary.BigEndian.PutUint32(n[:], crc32.ChecksumIEEE(out.Bytes()[start:]))
	out.Write(n[:])
}
