// Oracle for multi-resolution parts: per-level, per-channel statistics of every level of every tiled part,
// as the OpenEXR C++ library decodes them (exr_ref_stats covers level 0 only).
// Prints {"parts":[{"part":N,"levels":[{"lx":N,"ly":N,"dataWindow":[x0,y0,x1,y1],"channels":[{name,min,max,mean,nanCount,infCount}]}]}]}
#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfMultiPartInputFile.h>
#include <ImfPartType.h>
#include <ImfTiledInputPart.h>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>
using namespace Imf;

static void num(double v) {
  if (std::isfinite(v))
    std::printf("%.9g", v);
  else
    std::printf("null");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s file.exr\n", argv[0]);
    return 2;
  }
  try {
    MultiPartInputFile file(argv[1]);
    std::printf("{\"parts\":[");
    bool firstPart = true;
    for (int p = 0; p < file.parts(); ++p) {
      const Header &h = file.header(p);
      if (!h.hasTileDescription() || (h.hasType() && h.type() != TILEDIMAGE)) continue;
      TiledInputPart part(file, p);
      std::printf("%s{\"part\":%d,\"levels\":[", firstPart ? "" : ",", p);
      firstPart = false;
      bool firstLevel = true;
      for (int ly = 0; ly < part.numYLevels(); ++ly) {
        for (int lx = 0; lx < part.numXLevels(); ++lx) {
          if (!part.isValidLevel(lx, ly)) continue;
          auto dw = part.dataWindowForLevel(lx, ly);
          long w = dw.max.x - dw.min.x + 1, ht = dw.max.y - dw.min.y + 1;
          std::vector<std::string> names;
          std::vector<std::vector<float>> bufs;
          for (auto it = h.channels().begin(); it != h.channels().end(); ++it) names.push_back(it.name());
          bufs.resize(names.size());
          FrameBuffer fb;
          for (size_t c = 0; c < names.size(); ++c) {
            bufs[c].assign(w * ht, NAN);
            fb.insert(names[c], Slice(FLOAT, (char *)(bufs[c].data() - dw.min.x - dw.min.y * w), sizeof(float), sizeof(float) * w));
          }
          part.setFrameBuffer(fb);
          part.readTiles(0, part.numXTiles(lx) - 1, 0, part.numYTiles(ly) - 1, lx, ly);
          std::printf("%s{\"lx\":%d,\"ly\":%d,\"dataWindow\":[%d,%d,%d,%d],\"channels\":[", firstLevel ? "" : ",", lx, ly, dw.min.x,
                      dw.min.y, dw.max.x, dw.max.y);
          firstLevel = false;
          for (size_t c = 0; c < names.size(); ++c) {
            double mn = INFINITY, mx = -INFINITY, sum = 0;
            long n = 0, nan = 0, inf = 0;
            for (float v : bufs[c]) {
              if (std::isnan(v)) {
                ++nan;
                continue;
              }
              if (std::isinf(v)) {
                ++inf;
                continue;
              }
              if (v < mn) mn = v;
              if (v > mx) mx = v;
              sum += v;
              ++n;
            }
            std::printf("%s{\"name\":\"%s\",\"min\":", c ? "," : "", names[c].c_str());
            num(n ? mn : NAN);
            std::printf(",\"max\":");
            num(n ? mx : NAN);
            std::printf(",\"mean\":");
            num(n ? sum / n : NAN);
            std::printf(",\"nanCount\":%ld,\"infCount\":%ld}", nan, inf);
          }
          std::printf("]}");
        }
      }
      std::printf("]}");
    }
    std::printf("]}\n");
  } catch (const std::exception &e) {
    std::printf("{\"error\":\"%s\"}\n", e.what());
    return 1;
  }
  return 0;
}
