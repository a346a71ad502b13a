/*
 * One NIST LWC variant through its shim (capi/nist/<variant>/encrypt.c):
 * every byte of ciphertext, tag and associated data forged is rejected
 * with -1 and no plaintext is written; in place; NULL and zero lengths;
 * overlapping buffers; lengths out of range.
 */
#include <stdint.h>
#include <string.h>

#include "api.h"
#include "check.h"
#include "crypto_aead.h"
#include "elephant.h"

#define MAX_LEN 100

static unsigned char key[CRYPTO_KEYBYTES], nonce[CRYPTO_NPUBBYTES];
static unsigned char msg[MAX_LEN], ad[MAX_LEN];

static int all(const unsigned char *bytes, size_t len, unsigned char value) {
  size_t i;
  for (i = 0; i < len; i++) {
    if (bytes[i] != value) return 0;
  }
  return 1;
}

static void forgeries(unsigned long long mlen, unsigned long long adlen) {
  unsigned char ct[MAX_LEN + CRYPTO_ABYTES], out[MAX_LEN], forged_ad[MAX_LEN];
  unsigned long long clen, outlen = 12345, i;
  CHECK(crypto_aead_encrypt(ct, &clen, msg, mlen, ad, adlen, NULL, nonce, key) == 0);
  CHECK(clen == mlen + CRYPTO_ABYTES);
  for (i = 0; i < clen * 8; i++) {
    ct[i / 8] ^= (unsigned char)(1u << (i % 8));
    memset(out, 0xA5, sizeof out);
    CHECK(crypto_aead_decrypt(out, &outlen, NULL, ct, clen, ad, adlen, nonce, key) == -1);
    /* Out of place: zeros over the message's length, nothing beyond. */
    CHECK(all(out, mlen, 0) && all(out + mlen, sizeof out - mlen, 0xA5) && outlen == 12345);
    ct[i / 8] ^= (unsigned char)(1u << (i % 8));
  }
  memcpy(forged_ad, ad, adlen);
  for (i = 0; i < adlen; i++) {
    forged_ad[i] ^= 0x80;
    CHECK(crypto_aead_decrypt(out, &outlen, NULL, ct, clen, forged_ad, adlen, nonce, key) == -1);
    forged_ad[i] ^= 0x80;
  }
  /* A truncated ciphertext is rejected too. */
  if (clen > 0) {
    CHECK(crypto_aead_decrypt(out, &outlen, NULL, ct, clen - 1, ad, adlen, nonce, key) < 0);
  }
  CHECK(crypto_aead_decrypt(out, &outlen, NULL, ct, clen, ad, adlen, nonce, key) == 0);
  CHECK(outlen == mlen && memcmp(out, msg, mlen) == 0);
}

static void in_place(void) {
  unsigned char ct[MAX_LEN + CRYPTO_ABYTES], buf[MAX_LEN + CRYPTO_ABYTES];
  unsigned long long clen, len;
  CHECK(crypto_aead_encrypt(ct, &clen, msg, 50, ad, 7, NULL, nonce, key) == 0);
  memcpy(buf, msg, 50);
  CHECK(crypto_aead_encrypt(buf, &len, buf, 50, ad, 7, NULL, nonce, key) == 0);
  CHECK(len == clen && memcmp(buf, ct, clen) == 0);
  CHECK(crypto_aead_decrypt(buf, &len, NULL, buf, clen, ad, 7, nonce, key) == 0);
  CHECK(len == 50 && memcmp(buf, msg, 50) == 0);
  /* A forgery in place leaves the ciphertext as it was. */
  memcpy(buf, ct, clen);
  buf[clen - 1] ^= 1;
  CHECK(crypto_aead_decrypt(buf, &len, NULL, buf, clen, ad, 7, nonce, key) == -1);
  buf[clen - 1] ^= 1;
  CHECK(memcmp(buf, ct, clen) == 0);
}

static void nulls(void) {
  unsigned char ct[CRYPTO_ABYTES], ct2[CRYPTO_ABYTES], out[1];
  unsigned long long clen, len;
  CHECK(crypto_aead_encrypt(ct, &clen, NULL, 0, NULL, 0, NULL, nonce, key) == 0);
  CHECK(clen == CRYPTO_ABYTES);
  CHECK(crypto_aead_encrypt(ct2, &clen, msg, 0, ad, 0, NULL, nonce, key) == 0);
  CHECK(memcmp(ct, ct2, CRYPTO_ABYTES) == 0);
  CHECK(crypto_aead_decrypt(NULL, &len, NULL, ct, CRYPTO_ABYTES, NULL, 0, nonce, key) == 0);
  CHECK(len == 0);
  CHECK(crypto_aead_decrypt(out, &len, NULL, ct, CRYPTO_ABYTES, ad, 0, nonce, key) == 0);
  CHECK(crypto_aead_encrypt(NULL, &clen, msg, 0, ad, 0, NULL, nonce, key) == ELEPHANT_ERR_NULL);
  CHECK(crypto_aead_encrypt(ct, &clen, NULL, 1, ad, 0, NULL, nonce, key) == ELEPHANT_ERR_NULL);
  CHECK(crypto_aead_encrypt(ct, &clen, msg, 0, NULL, 1, NULL, nonce, key) == ELEPHANT_ERR_NULL);
  CHECK(crypto_aead_encrypt(ct, &clen, msg, 0, ad, 0, NULL, NULL, key) == ELEPHANT_ERR_NULL);
  CHECK(crypto_aead_encrypt(ct, &clen, msg, 0, ad, 0, NULL, nonce, NULL) == ELEPHANT_ERR_NULL);
  CHECK(crypto_aead_encrypt(ct, NULL, msg, 0, ad, 0, NULL, nonce, key) == ELEPHANT_ERR_NULL);
  CHECK(crypto_aead_decrypt(out, NULL, NULL, ct, CRYPTO_ABYTES, ad, 0, nonce, key) == ELEPHANT_ERR_NULL);
  CHECK(crypto_aead_decrypt(out, &len, NULL, NULL, CRYPTO_ABYTES, ad, 0, nonce, key) == ELEPHANT_ERR_NULL);
  CHECK(crypto_aead_decrypt(NULL, &len, NULL, ct, CRYPTO_ABYTES + 1, ad, 0, nonce, key) == ELEPHANT_ERR_NULL);
}

static void overlaps(void) {
  unsigned char buf[3 * MAX_LEN], saved[3 * MAX_LEN];
  unsigned long long len;
  memset(buf, 0, sizeof buf);
  memcpy(buf, msg, 40);
  memcpy(saved, buf, sizeof saved);
  /* Output one byte past the input, or over the associated data, nonce or key. */
  CHECK(crypto_aead_encrypt(buf + 1, &len, buf, 40, ad, 3, NULL, nonce, key) == ELEPHANT_ERR_OVERLAP);
  CHECK(crypto_aead_encrypt(buf + 100, &len, msg, 40, buf + 110, 3, NULL, nonce, key) == ELEPHANT_ERR_OVERLAP);
  CHECK(crypto_aead_encrypt(buf + 100, &len, msg, 40, ad, 3, NULL, buf + 100 + 40, key) == ELEPHANT_ERR_OVERLAP);
  CHECK(crypto_aead_encrypt(buf + 100, &len, msg, 40, ad, 3, NULL, nonce, buf + 90) == ELEPHANT_ERR_OVERLAP);
  CHECK(memcmp(buf, saved, sizeof saved) == 0);
  CHECK(crypto_aead_encrypt(buf + 100, &len, msg, 40, ad, 3, NULL, nonce, key) == 0);
  memcpy(saved, buf, sizeof saved);
  CHECK(crypto_aead_decrypt(buf + 99, &len, NULL, buf + 100, len, ad, 3, nonce, key) == ELEPHANT_ERR_OVERLAP);
  /* The plaintext over the tag it is verified against. */
  CHECK(crypto_aead_decrypt(buf + 100 + 40 - 2, &len, NULL, buf + 100, 40 + CRYPTO_ABYTES, ad, 3, nonce, key) == ELEPHANT_ERR_OVERLAP);
  CHECK(memcmp(buf, saved, sizeof saved) == 0);
  /* Adjacent, not overlapping: fine. */
  CHECK(crypto_aead_decrypt(buf + 60, &len, NULL, buf + 100, 40 + CRYPTO_ABYTES, ad, 3, nonce, key) == 0);
  CHECK(memcmp(buf + 60, msg, 40) == 0);
}

static void lengths(void) {
  unsigned char ct[CRYPTO_ABYTES + 1], out[1];
  unsigned long long len;
  CHECK(crypto_aead_encrypt(ct, &len, msg, ~0ULL, ad, 0, NULL, nonce, key) == ELEPHANT_ERR_LENGTH);
  CHECK(crypto_aead_encrypt(ct, &len, msg, (unsigned long long)SIZE_MAX - CRYPTO_ABYTES + 1, ad, 0, NULL, nonce, key) == ELEPHANT_ERR_LENGTH);
  CHECK(crypto_aead_encrypt(ct, &len, msg, 0, ad, ~0ULL, NULL, nonce, key) == ELEPHANT_ERR_LENGTH);
  CHECK(crypto_aead_decrypt(out, &len, NULL, ct, CRYPTO_ABYTES - 1, ad, 0, nonce, key) == ELEPHANT_ERR_LENGTH);
  CHECK(crypto_aead_decrypt(out, &len, NULL, ct, ~0ULL, ad, 0, nonce, key) == ELEPHANT_ERR_LENGTH);
#if SIZE_MAX > 0xFFFFFFFFu
  /* Just above the longest message and associated data of one call (2^50 - 1). */
  CHECK(crypto_aead_encrypt(ct, &len, msg, ELEPHANT_MAX_MESSAGE_LEN + 1, ad, 0, NULL, nonce, key) == ELEPHANT_ERR_LENGTH);
  CHECK(crypto_aead_encrypt(ct, &len, msg, 0, ad, ELEPHANT_MAX_MESSAGE_LEN + 1, NULL, nonce, key) == ELEPHANT_ERR_LENGTH);
  CHECK(crypto_aead_decrypt(out, &len, NULL, ct, ELEPHANT_MAX_MESSAGE_LEN + 1 + CRYPTO_ABYTES, ad, 0, nonce, key) == ELEPHANT_ERR_LENGTH);
#endif
}

int main(void) {
  unsigned long long mlen, adlen;
  size_t i;
  for (i = 0; i < sizeof key; i++) key[i] = (unsigned char)(i * 7 + 1);
  for (i = 0; i < sizeof nonce; i++) nonce[i] = (unsigned char)(i * 5 + 3);
  for (i = 0; i < MAX_LEN; i++) msg[i] = (unsigned char)(i * 3), ad[i] = (unsigned char)(i ^ 0x5A);
  for (mlen = 0; mlen <= 40; mlen += 13) {
    for (adlen = 0; adlen <= 25; adlen += 25) forgeries(mlen, adlen);
  }
  in_place();
  nulls();
  overlaps();
  lengths();
  if (failures) {
    fprintf(stderr, "nist: %d checks failed\n", failures);
    return 1;
  }
  printf("nist (%d-byte tags): all checks passed\n", CRYPTO_ABYTES);
  return 0;
}
