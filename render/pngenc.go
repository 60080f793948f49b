package render

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"github.com/klauspost/compress/zlib"
	"hash/crc32"
	"image"
	"image/color"
	"io"
	"sync"
)

// pngLevel is the zlib level of the pictures. The compressor is
// klauspost/compress's zlib, not the standard library's: at the same level it
// is 1.8 times as fast for pictures 2% larger, and compression is most of the
// bot's CPU per move (strategobot loadtest). Level 5 keeps every board within
// 25 KB with the texts of every language: of 1,326 sampled boards the largest
// is 24.0 KB at level 5, 26.1 KB at level 4, 23.3 KB at level 6. Measured on a
// quiet 2-core machine (user CPU of 1,000 moves' three pictures, three runs):
// level 4 3.9–4.9 s, level 5 5.2–6.2 s, level 6 6.6–7.4 s, so 5 is the
// cheapest level within the limit (TestBoardSizeLimit, BenchmarkBoardSizes).
const pngLevel = 5

// pngEncoder writes paletted images of one palette as 8-bit indexed PNGs
// with no row filters (they do not help indexed pictures), reusing its
// compressors and buffers.
type pngEncoder struct {
	plte   []byte    // the palette as PLTE chunk data
	states sync.Pool // *pngState
}

type pngState struct {
	idat, out bytes.Buffer
	zw        *zlib.Writer
}

func newPNGEncoder(pal color.Palette) (*pngEncoder, error) {
	if len(pal) == 0 || len(pal) > 256 {
		return nil, fmt.Errorf("render: a PNG palette of %d colours", len(pal))
	}
	e := &pngEncoder{}
	for _, c := range pal {
		rgba := color.RGBAModel.Convert(c).(color.RGBA)
		e.plte = append(e.plte, rgba.R, rgba.G, rgba.B)
	}
	return e, nil
}

// encode writes img, whose palette must be the encoder's, as a PNG.
func (e *pngEncoder) encode(w io.Writer, img *image.Paletted) error {
	st, _ := e.states.Get().(*pngState)
	if st == nil {
		zw, err := zlib.NewWriterLevel(nil, pngLevel)
		if err != nil {
			return fmt.Errorf("render: zlib: %w", err)
		}
		st = &pngState{zw: zw}
	}
	defer e.states.Put(st)
	b := img.Rect
	st.idat.Reset()
	st.zw.Reset(&st.idat)
	filter := []byte{0} // "None" before every row
	for y := b.Min.Y; y < b.Max.Y; y++ {
		off := img.PixOffset(b.Min.X, y)
		// Writes to a bytes.Buffer cannot fail.
		_, _ = st.zw.Write(filter)
		_, _ = st.zw.Write(img.Pix[off : off+b.Dx()])
	}
	_ = st.zw.Close()
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
