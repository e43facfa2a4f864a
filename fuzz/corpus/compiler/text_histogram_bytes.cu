//@ buffer data: u8[48] = "programming massively parallel processors"
//@ buffer histo: u32[7] = 0
//@ launch grid=1 block=32
__global__ void text_histogram(unsigned char *data, unsigned int length, unsigned int *histo) {
  unsigned int i = threadIdx.x + blockIdx.x * blockDim.x;
  unsigned int stride = blockDim.x * gridDim.x;
  while (i < length) {
    int alphabet_position = data[i] - 'a';
    if (alphabet_position >= 0 && alphabet_position < 26) atomicAdd(&histo[alphabet_position / 4], 1);
    i += stride;
  }
}
