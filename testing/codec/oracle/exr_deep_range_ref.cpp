// Oracle for deep samples and the depth-range composite: what the OpenEXR C++ library reads from a deep part, and
// that part composited over [near, far] by the viewer's rules (shaders/deep/range-composite.ts), in float32.
// Usage: exr_deep_range_ref FILE PART NEAR FAR. Prints {"width","height","channels":[{"name","type"}],"counts":[..],
// "samples":[[bits..]..],"composite":[[bits..]..]}: samples per channel in file order as stored bits (half: binary16,
// float: binary32, uint: the value), composites per channel and pixel as binary32 bits. Level 0 of tiled parts.
#include <ImfChannelList.h>
#include <ImfDeepFrameBuffer.h>
#include <ImfDeepScanLineInputPart.h>
#include <ImfDeepTiledInputPart.h>
#include <ImfHeader.h>
#include <ImfMultiPartInputFile.h>
#include <ImfPartType.h>
#include <half.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>
using namespace Imf;

static uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// a sample's share of the range: 1 or 0 for a point sample, its thickness's share for a volume sample
static float fraction(float z, float zb, float nearZ, float farZ) {
  if (!(zb > z)) return z >= nearZ && z <= farZ ? 1.0f : 0.0f;
  if (z >= nearZ && zb <= farZ) return 1.0f;
  float overlap = std::min(zb, farZ) - std::max(z, nearZ);
  return overlap > 0 ? overlap / (zb - z) : 0.0f;
}

// OpenEXR's "Interpreting Deep Pixels": alpha' = 1 - (1 - alpha)^x, as -expm1(x log1p(-alpha)) in double
static float splitAlpha(float a, float x) {
  if (x >= 1 || a >= 1) return a;
  if (a <= 0) return a * x;
  return (float)(-std::expm1((double)x * std::log1p(-(double)a)));
}

static float splitValue(float v, float a, float splitA, float x) {
  if (x >= 1 || a >= 1) return v;
  if (a <= 0) return v * x;
  return v * (splitA / a);
}

static std::string layerOf(const std::string &name) {
  size_t dot = name.rfind('.');
  return dot == std::string::npos ? "" : name.substr(0, dot);
}

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s file.exr part near far\n", argv[0]);
    return 2;
  }
  try {
    MultiPartInputFile file(argv[1]);
    int p = std::atoi(argv[2]);
    float nearZ = std::strtof(argv[3], nullptr), farZ = std::strtof(argv[4], nullptr);
    const Header &h = file.header(p);
    if (!h.hasType() || !isDeepData(h.type())) throw std::runtime_error("not a deep part");
    auto dw = h.dataWindow();
    long w = dw.max.x - dw.min.x + 1, ht = dw.max.y - dw.min.y + 1, n = w * ht;
    std::vector<uint32_t> counts(n);
    DeepFrameBuffer fb;
    fb.insertSampleCountSlice(Slice(UINT, (char *)(counts.data() - dw.min.x - dw.min.y * w), sizeof(uint32_t), sizeof(uint32_t) * w));
    std::vector<std::string> names;
    std::vector<PixelType> types;
    for (auto it = h.channels().begin(); it != h.channels().end(); ++it) {
      names.push_back(it.name());
      types.push_back(it.channel().type);
    }
    size_t nc = names.size();
    std::vector<std::vector<char *>> ptrs(nc, std::vector<char *>(n));
    for (size_t c = 0; c < nc; ++c) {
      size_t size = types[c] == HALF ? 2 : 4;
      fb.insert(names[c],
                DeepSlice(types[c], (char *)(ptrs[c].data() - dw.min.x - dw.min.y * w), sizeof(char *), sizeof(char *) * w, size));
    }
    auto allocate = [&]() {
      for (size_t c = 0; c < nc; ++c)
        for (long i = 0; i < n; ++i) ptrs[c][i] = new char[(counts[i] ? counts[i] : 1) * 4];
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
    // a sample's stored bits, and its value as the composite reads it
    auto bits = [&](size_t c, long i, uint32_t s) -> uint32_t {
      if (types[c] == HALF) return ((uint16_t *)ptrs[c][i])[s];
      return ((uint32_t *)ptrs[c][i])[s];
    };
    auto value = [&](size_t c, long i, uint32_t s) -> float {
      if (types[c] == HALF) {
        half v;
        v.setBits(((uint16_t *)ptrs[c][i])[s]);
        return (float)v;
      }
      if (types[c] == FLOAT) return ((float *)ptrs[c][i])[s];
      return (float)((uint32_t *)ptrs[c][i])[s];
    };
    // roles: -2 depth or front, -1 front, else the alpha channel's index
    int zc = -1, zbc = -1;
    std::vector<int> alphaOf(nc, -1);
    for (size_t c = 0; c < nc; ++c) {
      if (names[c] == "Z") zc = (int)c;
      if (names[c] == "ZBack") zbc = (int)c;
    }
    auto indexOf = [&](const std::string &name) -> int {
      for (size_t c = 0; c < nc; ++c)
        if (names[c] == name) return (int)c;
      return -1;
    };
    for (size_t c = 0; c < nc; ++c) {
      if (names[c] == "Z" || names[c] == "ZBack" || types[c] == UINT) continue;
      std::string layer = layerOf(names[c]);
      int own = indexOf(layer.empty() ? "A" : layer + ".A");
      int a = own >= 0 ? own : indexOf("A");
      if (a >= 0 && types[a] != UINT) alphaOf[c] = a;
    }
    std::printf("{\"width\":%ld,\"height\":%ld,\"channels\":[", w, ht);
    for (size_t c = 0; c < nc; ++c)
      std::printf("%s{\"name\":\"%s\",\"type\":\"%s\"}", c ? "," : "", names[c].c_str(),
                  types[c] == HALF    ? "half"
                  : types[c] == FLOAT ? "float"
                                      : "uint");
    std::printf("],\"counts\":[");
    for (long i = 0; i < n; ++i) std::printf("%s%u", i ? "," : "", counts[i]);
    std::printf("],\"samples\":[");
    for (size_t c = 0; c < nc; ++c) {
      std::printf("%s[", c ? "," : "");
      bool first = true;
      for (long i = 0; i < n; ++i)
        for (uint32_t s = 0; s < counts[i]; ++s, first = false) std::printf("%s%u", first ? "" : ",", bits(c, i, s));
      std::printf("]");
    }
    std::vector<std::vector<float>> out(nc, std::vector<float>(n, 0.0f));
    for (long i = 0; i < n; ++i) {
      std::vector<uint32_t> order(counts[i]);
      std::iota(order.begin(), order.end(), 0);
      // depth order: Z, then ZBack, then file order
      if (zc >= 0) {
        int back = zbc >= 0 ? zbc : zc;
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
          float za = value(zc, i, a), zb = value(zc, i, b);
          if (za != zb) return za < zb;
          return value(back, i, a) < value(back, i, b);
        });
      }
      std::vector<float> t(nc, 1.0f);
      std::vector<bool> frontSet(nc, false);
      for (uint32_t s : order) {
        float z = zc >= 0 ? value(zc, i, s) : 0.0f;
        float zb = zbc >= 0 ? value(zbc, i, s) : z;
        float x = fraction(z, zb, nearZ, farZ);
        if (x == 0) continue;
        for (size_t c = 0; c < nc; ++c) {
          if (alphaOf[c] < 0) {
            if (!frontSet[c]) out[c][i] = value(c, i, s);
            frontSet[c] = true;
            continue;
          }
          if (!(t[c] > 0)) continue;
          float alpha = value(alphaOf[c], i, s);
          float a = splitAlpha(alpha, x);
          float v = splitValue(value(c, i, s), alpha, a, x);
          out[c][i] = out[c][i] + t[c] * v;
          t[c] = t[c] * (1.0f - a);
        }
      }
    }
    std::printf("],\"composite\":[");
    for (size_t c = 0; c < nc; ++c) {
      std::printf("%s[", c ? "," : "");
      for (long i = 0; i < n; ++i) std::printf("%s%u", i ? "," : "", bitsOf(out[c][i]));
      std::printf("]");
    }
    std::printf("]}\n");
    for (size_t c = 0; c < nc; ++c)
      for (long i = 0; i < n; ++i) delete[] ptrs[c][i];
  } catch (const std::exception &e) {
    std::printf("{\"error\":\"%s\"}\n", e.what());
    return 1;
  }
  return 0;
}
