/*
 * crypto_aead_encrypt and crypto_aead_decrypt of Elephant v2 Dumbo
 * (elephant160v2), for the NIST LWC and SUPERCOP harnesses: a shim over
 * libelephant's native API. Compile this directory's .c files with the
 * harness (which supplies crypto_aead.h) and link libelephant.a.
 *
 * Returns 0, -1 if the tag does not match (no plaintext written: m holds
 * zeros, or the ciphertext when m == c), or
 * another negative code of elephant.h: -2 for a NULL pointer with a
 * length, -3 for a length out of range (a ciphertext shorter than its
 * tag, or one that size_t cannot hold), -4 for partially overlapping
 * buffers. c == m (in place) works; nsec is unused.
 */
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "crypto_aead.h"

/* From elephant.h, declared here so that the directory stands alone
   (capi/run also compiles it with elephant.h, which checks that they
   agree). */
int elephant_dumbo_encrypt(uint8_t *c, const uint8_t *m, size_t mlen, const uint8_t *ad,
                           size_t adlen, const uint8_t *nonce, const uint8_t *key);
int elephant_dumbo_decrypt(uint8_t *m, const uint8_t *c, size_t clen, const uint8_t *ad,
                           size_t adlen, const uint8_t *nonce, const uint8_t *key);

int crypto_aead_encrypt(unsigned char *c, unsigned long long *clen, const unsigned char *m,
                        unsigned long long mlen, const unsigned char *ad,
                        unsigned long long adlen, const unsigned char *nsec,
                        const unsigned char *npub, const unsigned char *k) {
  int status;
  (void)nsec;
  if (clen == NULL) {
    return -2;
  }
  if (mlen > SIZE_MAX - CRYPTO_ABYTES || adlen > SIZE_MAX) {
    return -3;
  }
  status = elephant_dumbo_encrypt(c, m, (size_t)mlen, ad, (size_t)adlen, npub, k);
  if (status == 0) {
    *clen = mlen + CRYPTO_ABYTES;
  }
  return status;
}

int crypto_aead_decrypt(unsigned char *m, unsigned long long *mlen, unsigned char *nsec,
                        const unsigned char *c, unsigned long long clen,
                        const unsigned char *ad, unsigned long long adlen,
                        const unsigned char *npub, const unsigned char *k) {
  int status;
  (void)nsec;
  if (mlen == NULL) {
    return -2;
  }
  if (clen > SIZE_MAX || adlen > SIZE_MAX) {
    return -3;
  }
  status = elephant_dumbo_decrypt(m, c, (size_t)clen, ad, (size_t)adlen, npub, k);
  if (status == 0) {
    *mlen = clen - CRYPTO_ABYTES;
  }
  return status;
}
