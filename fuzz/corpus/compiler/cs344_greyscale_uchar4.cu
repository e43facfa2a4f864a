// CUDA's vector types as courses use them: CS344's Problem Set 1 reads each pixel as a `uchar4`
// (ptxas loads it with one LDG.E and takes its bytes apart; warpscope's C loads the four bytes
// one by one). The parameters are named as the dumps bind them (arg0, arg1...).
// reference: C, and nvcc's PTX computes the same
//@ launch grid=1 block=(8,4)
//@ buffer arg0: u8[128] = (i * 37 + 11) % 256
//@ buffer arg1: u8[32]
//@ param arg2 = 4
//@ param arg3 = 8
__global__
void rgba_to_greyscale(const uchar4* const arg0,
                       unsigned char* const arg1,
                       int arg2, int arg3)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= arg3 || y >= arg2) return;
  uchar4 rgba = arg0[y * arg3 + x];
  float channelSum = .299f * rgba.x + .587f * rgba.y + .114f * rgba.z;
  arg1[y * arg3 + x] = channelSum;
}
