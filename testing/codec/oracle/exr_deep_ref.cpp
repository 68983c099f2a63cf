// Oracle for deep parts: what the OpenEXR C++ library reads from each deep part of a file, as hashes.
// Prints {"parts":[{"part":N,"samples":N,"countsHash":H,"channels":[{"name":S,"hash":H}]}]}: FNV-1a (32-bit)
// over the per-pixel sample counts (uint32, rows top to bottom) and over each channel's samples in
// their own type (pixels in row order, every sample), little-endian. Level 0 of deep tiled parts.
#include <ImfChannelList.h>
#include <ImfDeepFrameBuffer.h>
#include <ImfDeepScanLineInputPart.h>
#include <ImfDeepTiledInputPart.h>
#include <ImfHeader.h>
#include <ImfMultiPartInputFile.h>
#include <ImfPartType.h>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>
using namespace Imf;

static uint32_t fnv(uint32_t h, const void *data, size_t n) {
  const unsigned char *p = static_cast<const unsigned char *>(data);
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 16777619u;
  }
  return h;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s file.exr\n", argv[0]);
    return 2;
  }
  try {
    MultiPartInputFile file(argv[1]);
    std::printf("{\"parts\":[");
    bool first = true;
    for (int p = 0; p < file.parts(); ++p) {
      const Header &h = file.header(p);
      if (!h.hasType() || !isDeepData(h.type())) continue;
      auto dw = h.dataWindow();
      long w = dw.max.x - dw.min.x + 1, ht = dw.max.y - dw.min.y + 1;
      std::vector<uint32_t> counts(w * ht);
      DeepFrameBuffer fb;
      fb.insertSampleCountSlice(Slice(UINT, (char *)(counts.data() - dw.min.x - dw.min.y * w), sizeof(uint32_t), sizeof(uint32_t) * w));
      std::vector<std::string> names;
      std::vector<PixelType> types;
      for (auto it = h.channels().begin(); it != h.channels().end(); ++it) {
        names.push_back(it.name());
        types.push_back(it.channel().type);
      }
      std::vector<std::vector<char *>> ptrs(names.size(), std::vector<char *>(w * ht));
      for (size_t c = 0; c < names.size(); ++c) {
        size_t size = types[c] == HALF ? 2 : 4;
        fb.insert(names[c],
                  DeepSlice(types[c], (char *)(ptrs[c].data() - dw.min.x - dw.min.y * w), sizeof(char *), sizeof(char *) * w, size));
      }
      auto allocate = [&]() {
        for (size_t c = 0; c < names.size(); ++c)
          for (long i = 0; i < w * ht; ++i) ptrs[c][i] = new char[(counts[i] ? counts[i] : 1) * 4];
      };
      if (h.type() == DEEPTILE) {
        DeepTiledInputPart part(file, p);
        part.setFrameBuffer(fb);
        part.readPixelSampleCounts(0, part.numXTiles(0) - 1, 0, part.numYTiles(0) - 1);
        allocate();
        part.readTiles(0, part.numXTiles(0) - 1, 0, part.numYTiles(0) - 1);
      } else {
        DeepScanLineInputPart part(file, p);
        part.setFrameBuffer(fb);
        part.readPixelSampleCounts(dw.min.y, dw.max.y);
        allocate();
        part.readPixels(dw.min.y, dw.max.y);
      }
      unsigned long total = 0;
      for (uint32_t n : counts) total += n;
      std::printf("%s{\"part\":%d,\"samples\":%lu,\"countsHash\":%u,\"channels\":[", first ? "" : ",", p, total,
                  fnv(2166136261u, counts.data(), counts.size() * 4));
      first = false;
      for (size_t c = 0; c < names.size(); ++c) {
        size_t size = types[c] == HALF ? 2 : 4;
        uint32_t hash = 2166136261u;
        for (long i = 0; i < w * ht; ++i) hash = fnv(hash, ptrs[c][i], counts[i] * size);
        std::printf("%s{\"name\":\"%s\",\"hash\":%u}", c ? "," : "", names[c].c_str(), hash);
        for (long i = 0; i < w * ht; ++i) delete[] ptrs[c][i];
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
