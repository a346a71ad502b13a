/*
 * The native API of each instance: combined and detached forms agree, in
 * place and out of place; a context gives what the key gives and is wiped
 * to zeros; a rejected decryption out of place writes nothing; the
 * multi-message calls give each packet what a single call gives it and
 * reject a forged one on its own; misaligned contexts, overlapping
 * packets and NULL arrays are refused.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "elephant.h"

#define MAX_LEN 300
#define PACKETS 70 /* more than one group of the multi-message call */

static uint8_t key[ELEPHANT_KEY_BYTES], nonce[ELEPHANT_NONCE_BYTES];
static uint8_t msg[MAX_LEN], ad[MAX_LEN];

/* The tests of one instance, its names pasted in. */
#define INSTANCE_TESTS(NAME, TAG)                                                          \
  static void test_##NAME(void) {                                                          \
    static uint8_t ct[MAX_LEN + TAG], ct2[MAX_LEN + TAG], out[MAX_LEN], tag[TAG];          \
    static uint8_t bufs[PACKETS][MAX_LEN], tags[PACKETS][TAG], keys[PACKETS][16];          \
    static elephant_##NAME##_packet packets[PACKETS];                                      \
    static elephant_##NAME##_ctx ctxs[PACKETS];                                            \
    elephant_##NAME##_ctx ctx;                                                             \
    uint8_t raw[sizeof(elephant_##NAME##_ctx) + 4];                                        \
    size_t len, i, j;                                                                      \
    CHECK(sizeof ctx == ELEPHANT_CTX_SIZE && _Alignof(elephant_##NAME##_ctx) == ELEPHANT_CTX_ALIGN); \
    CHECK(elephant_##NAME##_init(&ctx, key) == ELEPHANT_OK);                               \
    for (len = 0; len <= MAX_LEN; len += 37) {                                             \
      /* Combined = ciphertext then detached tag; the context agrees. */                   \
      CHECK(elephant_##NAME##_encrypt(ct, msg, len, ad, 11, nonce, key) == ELEPHANT_OK);   \
      CHECK(elephant_##NAME##_encrypt_detached(ct2, tag, msg, len, ad, 11, nonce, key) == 0); \
      CHECK(memcmp(ct, ct2, len) == 0 && memcmp(ct + len, tag, TAG) == 0);                 \
      CHECK(elephant_##NAME##_ctx_encrypt(&ctx, ct2, msg, len, ad, 11, nonce) == 0);       \
      CHECK(memcmp(ct, ct2, len + TAG) == 0);                                              \
      memcpy(ct2, msg, len);                                                               \
      CHECK(elephant_##NAME##_ctx_encrypt_detached(&ctx, ct2, tag, ct2, len, ad, 11, nonce) == 0); \
      CHECK(memcmp(ct, ct2, len) == 0 && memcmp(ct + len, tag, TAG) == 0);                 \
      /* Decryption, each form. */                                                        \
      CHECK(elephant_##NAME##_decrypt(out, ct, len + TAG, ad, 11, nonce, key) == 0);       \
      CHECK(memcmp(out, msg, len) == 0);                                                   \
      memset(out, 0, sizeof out);                                                          \
      CHECK(elephant_##NAME##_ctx_decrypt_detached(&ctx, out, ct, len, tag, ad, 11, nonce) == 0); \
      CHECK(memcmp(out, msg, len) == 0);                                                   \
      memcpy(ct2, ct, len);                                                                \
      CHECK(elephant_##NAME##_decrypt_detached(ct2, ct2, len, tag, ad, 11, nonce, key) == 0); \
      CHECK(memcmp(ct2, msg, len) == 0);                                                   \
      memcpy(ct2, ct, len + TAG);                                                          \
      CHECK(elephant_##NAME##_ctx_decrypt(&ctx, ct2, ct2, len + TAG, ad, 11, nonce) == 0); \
      CHECK(memcmp(ct2, msg, len) == 0);                                                   \
      /* Rejected out of place: zeros. */                                                    \
      tag[0] ^= 1;                                                                         \
      memset(out, 0xA5, sizeof out);                                                       \
      CHECK(elephant_##NAME##_decrypt_detached(out, ct, len, tag, ad, 11, nonce, key) == ELEPHANT_ERR_VERIFY); \
      CHECK(elephant_##NAME##_ctx_decrypt_detached(&ctx, out, ct, len, tag, ad, 11, nonce) == ELEPHANT_ERR_VERIFY); \
      for (i = 0; i < sizeof out; i++) CHECK(out[i] == (i < len ? 0 : 0xA5));              \
      tag[0] ^= 1;                                                                         \
    }                                                                                      \
    /* Detached: the tag may not overlap the ciphertext. */                               \
    CHECK(elephant_##NAME##_encrypt_detached(ct, ct + 5, msg, 10, ad, 0, nonce, key) == ELEPHANT_ERR_OVERLAP); \
    CHECK(elephant_##NAME##_init(&ctx, NULL) == ELEPHANT_ERR_NULL);                        \
    CHECK(elephant_##NAME##_init((elephant_##NAME##_ctx *)(void *)(raw + 1), key) == ELEPHANT_ERR_ALIGNMENT); \
    /* Wiped: zeros. */                                                                   \
    CHECK(elephant_##NAME##_wipe(&ctx) == ELEPHANT_OK);                                    \
    /* (20 bytes: the shortest block, Dumbo's; the rest may be padding.) */             \
    for (i = 0; i < 20; i++) CHECK(((const uint8_t *)&ctx)[i] == 0);                     \
    CHECK(elephant_##NAME##_wipe(NULL) == ELEPHANT_ERR_NULL);                              \
    /* Many messages, many keys, lengths 0..: each as a single call gives it. */          \
    for (i = 0; i < PACKETS; i++) {                                                        \
      for (j = 0; j < 16; j++) keys[i][j] = (uint8_t)(i * 16 + j);                         \
      CHECK(elephant_##NAME##_init(&ctxs[i], keys[i]) == 0);                               \
      len = (i * 7) % MAX_LEN;                                                             \
      memcpy(bufs[i], msg, len);                                                           \
      packets[i] = (elephant_##NAME##_packet){&ctxs[i], nonce, ad, i % 20, bufs[i], len, tags[i], 99}; \
    }                                                                                      \
    CHECK(elephant_##NAME##_seal_many(packets, PACKETS) == ELEPHANT_OK);                   \
    for (i = 0; i < PACKETS; i++) {                                                        \
      len = (i * 7) % MAX_LEN;                                                             \
      CHECK(packets[i].status == ELEPHANT_OK);                                             \
      CHECK(elephant_##NAME##_encrypt(ct, msg, len, ad, i % 20, nonce, keys[i]) == 0);     \
      CHECK(memcmp(ct, bufs[i], len) == 0 && memcmp(ct + len, tags[i], TAG) == 0);         \
    }                                                                                      \
    tags[3][TAG - 1] ^= 0x40;                                                              \
    memcpy(ct2, bufs[3], 21);                                                              \
    CHECK(elephant_##NAME##_open_many(packets, PACKETS) == ELEPHANT_ERR_VERIFY);           \
    for (i = 0; i < PACKETS; i++) {                                                        \
      len = (i * 7) % MAX_LEN;                                                             \
      CHECK(packets[i].status == (i == 3 ? ELEPHANT_ERR_VERIFY : ELEPHANT_OK));            \
      CHECK(memcmp(bufs[i], i == 3 ? ct2 : msg, len) == 0);                                \
    }                                                                                      \
    /* Two packets writing the same buffer: refused, untouched. */                        \
    packets[1].buf = packets[0].buf + 1;                                                   \
    packets[1].len = packets[0].len = 5;                                                   \
    memcpy(ct2, bufs[0], 6);                                                               \
    CHECK(elephant_##NAME##_seal_many(packets, 2) == ELEPHANT_ERR_OVERLAP);                \
    CHECK(packets[0].status == ELEPHANT_ERR_OVERLAP && memcmp(ct2, bufs[0], 6) == 0);      \
    packets[1].buf = NULL;                                                                 \
    CHECK(elephant_##NAME##_seal_many(packets, 2) == ELEPHANT_ERR_NULL);                   \
    CHECK(packets[0].status == ELEPHANT_OK && packets[1].status == ELEPHANT_ERR_NULL);     \
    CHECK(elephant_##NAME##_seal_many(NULL, 0) == ELEPHANT_OK);                            \
    CHECK(elephant_##NAME##_open_many(NULL, 1) == ELEPHANT_ERR_NULL);                      \
    for (i = 0; i < PACKETS; i++) CHECK(elephant_##NAME##_wipe(&ctxs[i]) == 0);            \
  }

INSTANCE_TESTS(dumbo, ELEPHANT_DUMBO_TAG_BYTES)
INSTANCE_TESTS(jumbo, ELEPHANT_JUMBO_TAG_BYTES)
INSTANCE_TESTS(delirium, ELEPHANT_DELIRIUM_TAG_BYTES)

int main(void) {
  size_t i;
  for (i = 0; i < sizeof key; i++) key[i] = (uint8_t)(0xF0 ^ i);
  for (i = 0; i < sizeof nonce; i++) nonce[i] = (uint8_t)(i * 11);
  for (i = 0; i < MAX_LEN; i++) msg[i] = (uint8_t)(i * 13 + 1), ad[i] = (uint8_t)(i + 100);
  test_dumbo();
  test_jumbo();
  test_delirium();
  if (failures) {
    fprintf(stderr, "native: %d checks failed\n", failures);
    return 1;
  }
  printf("native API: all checks passed\n");
  return 0;
}
