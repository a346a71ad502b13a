/*
 * A program written against the C++ library's C ABI, declared here as
 * that library declares it: each official KAT record encrypted (ciphertext
 * and detached tag compared with CT) and decrypted back, and a forged tag
 * rejected with the plaintext buffer zeroed. Usage: cpp_abi KAT_DIRECTORY
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

void dumbo_encrypt(const uint8_t* key, const uint8_t* nonce, const uint8_t* data, size_t dlen, const uint8_t* txt, uint8_t* enc, size_t ctlen, uint8_t* tag);
bool dumbo_decrypt(const uint8_t* key, const uint8_t* nonce, const uint8_t* tag, const uint8_t* data, size_t dlen, const uint8_t* enc, uint8_t* txt, size_t ctlen);
void jumbo_encrypt(const uint8_t* key, const uint8_t* nonce, const uint8_t* data, size_t dlen, const uint8_t* txt, uint8_t* enc, size_t ctlen, uint8_t* tag);
bool jumbo_decrypt(const uint8_t* key, const uint8_t* nonce, const uint8_t* tag, const uint8_t* data, size_t dlen, const uint8_t* enc, uint8_t* txt, size_t ctlen);
void delirium_encrypt(const uint8_t* key, const uint8_t* nonce, const uint8_t* data, size_t dlen, const uint8_t* txt, uint8_t* enc, size_t ctlen, uint8_t* tag);
bool delirium_decrypt(const uint8_t* key, const uint8_t* nonce, const uint8_t* tag, const uint8_t* data, size_t dlen, const uint8_t* enc, uint8_t* txt, size_t ctlen);

typedef void (*encrypt_fn)(const uint8_t*, const uint8_t*, const uint8_t*, size_t, const uint8_t*, uint8_t*, size_t, uint8_t*);
typedef bool (*decrypt_fn)(const uint8_t*, const uint8_t*, const uint8_t*, const uint8_t*, size_t, const uint8_t*, uint8_t*, size_t);

/* Reads "NAME = HEX" into bytes; returns the length. */
static size_t hex_field(const char *line, const char *name, uint8_t *bytes) {
  size_t n = 0, prefix = strlen(name);
  const char *hex = line + prefix + 3;
  CHECK(strncmp(line, name, prefix) == 0 && strncmp(line + prefix, " = ", 3) == 0);
  while (hex[0] && hex[0] != '\n' && hex[1]) {
    char pair[3] = {hex[0], hex[1], 0};
    bytes[n++] = (uint8_t)strtoul(pair, NULL, 16);
    hex += 2;
  }
  return n;
}

static int round_trips(const char *path, encrypt_fn encrypt, decrypt_fn decrypt, size_t tag_len) {
  char line[256];
  uint8_t key[16], nonce[12], pt[64], ad[64], ct[80], enc[64], tag[16], txt[64];
  size_t ptlen = 0, adlen = 0, ctlen, i;
  int records = 0;
  FILE *file = fopen(path, "r");
  if (file == NULL) {
    fprintf(stderr, "cannot open %s\n", path);
    failures++;
    return 0;
  }
  while (fgets(line, sizeof line, file)) {
    if (strncmp(line, "Key", 3) == 0) hex_field(line, "Key", key);
    if (strncmp(line, "Nonce", 5) == 0) hex_field(line, "Nonce", nonce);
    if (strncmp(line, "PT", 2) == 0) ptlen = hex_field(line, "PT", pt);
    if (strncmp(line, "AD", 2) == 0) adlen = hex_field(line, "AD", ad);
    if (strncmp(line, "CT", 2) != 0) continue;
    ctlen = hex_field(line, "CT", ct);
    CHECK(ctlen == ptlen + tag_len);
    encrypt(key, nonce, ad, adlen, pt, enc, ptlen, tag);
    CHECK(memcmp(enc, ct, ptlen) == 0 && memcmp(tag, ct + ptlen, tag_len) == 0);
    memset(txt, 0xA5, sizeof txt);
    CHECK(decrypt(key, nonce, tag, ad, adlen, enc, txt, ptlen));
    CHECK(memcmp(txt, pt, ptlen) == 0);
    /* A forged tag: false, and the output zeroed. */
    tag[records % tag_len] ^= 0x01;
    memset(txt, 0xA5, sizeof txt);
    CHECK(!decrypt(key, nonce, tag, ad, adlen, enc, txt, ptlen));
    for (i = 0; i < ptlen; i++) CHECK(txt[i] == 0);
    records++;
  }
  fclose(file);
  return records;
}

int main(int argc, char **argv) {
  char path[512];
  int records;
  const char *dir = argc > 1 ? argv[1] : "kats";
  snprintf(path, sizeof path, "%s/dumbo.txt", dir);
  records = round_trips(path, dumbo_encrypt, dumbo_decrypt, 8);
  CHECK(records == 1089);
  snprintf(path, sizeof path, "%s/jumbo.txt", dir);
  records = round_trips(path, jumbo_encrypt, jumbo_decrypt, 8);
  CHECK(records == 1089);
  snprintf(path, sizeof path, "%s/delirium.txt", dir);
  records = round_trips(path, delirium_encrypt, delirium_decrypt, 16);
  CHECK(records == 1089);
  if (failures) {
    fprintf(stderr, "cpp_abi: %d checks failed\n", failures);
    return 1;
  }
  printf("C++ library ABI: 3 x 1089 KAT round trips and forgeries: all checks passed\n");
  return 0;
}
