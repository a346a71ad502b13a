/* Elephant v2 Jumbo (Elephant-Spongent-pi[176]) for the NIST LWC API. */
#define CRYPTO_KEYBYTES 16
#define CRYPTO_NSECBYTES 0
#define CRYPTO_NPUBBYTES 12
#define CRYPTO_ABYTES 8
#define CRYPTO_NOOVERLAP 1
