// Oracle for luminance/chroma and grey files: the RGBA halves OpenEXR's RgbaInputFile produces.
// Writes to OUT: int32 xMin, yMin, width, height, then width*height*4 half bit patterns (R, G, B, A
// per pixel, rows top to bottom), little-endian.
#include <ImfArray.h>
#include <ImfRgbaFile.h>
#include <cstdio>
#include <vector>
using namespace Imf;

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s file.exr out.bin\n", argv[0]);
    return 2;
  }
  try {
    RgbaInputFile file(argv[1]);
    auto dw = file.dataWindow();
    int w = dw.max.x - dw.min.x + 1, h = dw.max.y - dw.min.y + 1;
    std::vector<Rgba> pixels((size_t)w * h);
    file.setFrameBuffer(pixels.data() - dw.min.x - (long)dw.min.y * w, 1, w);
    file.readPixels(dw.min.y, dw.max.y);
    FILE *out = std::fopen(argv[2], "wb");
    if (!out) return 1;
    int head[4] = {dw.min.x, dw.min.y, w, h};
    std::fwrite(head, 4, 4, out);
    for (const Rgba &p : pixels) {
      unsigned short bits[4] = {p.r.bits(), p.g.bits(), p.b.bits(), p.a.bits()};
      std::fwrite(bits, 2, 4, out);
    }
    std::fclose(out);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
