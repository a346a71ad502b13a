/*
 * A known-answer file generator in the format of NIST's LWC generator:
 * key, nonce, plaintext and associated data filled with 00 01 02 ...,
 * plaintext lengths 0..32 (outer loop), associated-data lengths 0..32
 * (inner), each record "Count", "Key", "Nonce", "PT", "AD", "CT" in
 * upper-case hex and a blank line. Linked with one variant's NIST shim
 * (capi/nist/<variant>/encrypt.c) and libelephant; each ciphertext is also
 * decrypted and compared. Usage: genkat OUTPUT_FILE
 */
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "crypto_aead.h"

#define MAX_LEN 32

static void field(FILE *out, const char *name, const unsigned char *bytes,
                  unsigned long long len) {
  unsigned long long i;
  fprintf(out, "%s = ", name);
  for (i = 0; i < len; i++) {
    fprintf(out, "%02X", bytes[i]);
  }
  fprintf(out, "\n");
}

int main(int argc, char **argv) {
  unsigned char key[CRYPTO_KEYBYTES], nonce[CRYPTO_NPUBBYTES];
  unsigned char msg[MAX_LEN], ad[MAX_LEN], ct[MAX_LEN + CRYPTO_ABYTES], back[MAX_LEN];
  unsigned long long mlen, adlen, clen, backlen;
  int count = 1, i;
  FILE *out;
  if (argc != 2 || (out = fopen(argv[1], "w")) == NULL) {
    fprintf(stderr, "usage: genkat OUTPUT_FILE\n");
    return 2;
  }
  for (i = 0; i < CRYPTO_KEYBYTES; i++) key[i] = (unsigned char)i;
  for (i = 0; i < CRYPTO_NPUBBYTES; i++) nonce[i] = (unsigned char)i;
  for (i = 0; i < MAX_LEN; i++) msg[i] = ad[i] = (unsigned char)i;
  for (mlen = 0; mlen <= MAX_LEN; mlen++) {
    for (adlen = 0; adlen <= MAX_LEN; adlen++) {
      fprintf(out, "Count = %d\n", count++);
      field(out, "Key", key, CRYPTO_KEYBYTES);
      field(out, "Nonce", nonce, CRYPTO_NPUBBYTES);
      field(out, "PT", msg, mlen);
      field(out, "AD", ad, adlen);
      if (crypto_aead_encrypt(ct, &clen, msg, mlen, ad, adlen, NULL, nonce, key) != 0 ||
          clen != mlen + CRYPTO_ABYTES) {
        fprintf(stderr, "encryption failed at Count = %d\n", count - 1);
        return 1;
      }
      field(out, "CT", ct, clen);
      fprintf(out, "\n");
      if (crypto_aead_decrypt(back, &backlen, NULL, ct, clen, ad, adlen, nonce, key) != 0 ||
          backlen != mlen || memcmp(back, msg, mlen) != 0) {
        fprintf(stderr, "decryption failed at Count = %d\n", count - 1);
        return 1;
      }
    }
  }
  return fclose(out) == 0 ? 0 : 1;
}
