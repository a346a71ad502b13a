/*
 * The C API on a Cortex-M4 (QEMU mps2-an386), measured as
 * tools/firmware/bench measures the Rust library: executed instructions of
 * one-shot encryption (key setup included, no associated data) of 16 and
 * 128 bytes, through elephant_<instance>_encrypt in place, read from CMSDK
 * timer 0 under `-icount shift=10` (25 MHz: an instruction is 1024 / 40
 * ticks), less the cost of an empty measurement; peak stack by painting
 * 4 KiB below the call site. Checks the official KAT (Count = 529: 16-byte
 * message, no AD) and a decryption per instance, then prints a table and
 * exits through semihosting with the status.
 */
#include <stddef.h>
#include <stdint.h>

#include "elephant.h"

/* --- start-up, output and exit (semihosting) --- */
extern uint32_t __data_start, __data_end, __data_load, __bss_start, __bss_end, __stack_top;
int main(void);

static int semihost(int op, const void *arg) {
  register int r0 __asm__("r0") = op;
  register const void *r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

static void put(const char *text) { semihost(0x04, text); }

static void put_number(uint32_t n) {
  char digits[12];
  int at = 11;
  digits[at] = 0;
  do {
    digits[--at] = (char)('0' + n % 10);
    n /= 10;
  } while (n != 0);
  put(digits + at);
}

static void exit_qemu(int failed) {
  /* SYS_EXIT with ADP_Stopped_ApplicationExit (0x20026) or RunTimeErrorUnknown. */
  semihost(0x18, (const void *)(uintptr_t)(failed ? 0x20023 : 0x20026));
  for (;;) {
  }
}

void reset(void) {
  uint32_t *to = &__data_start, *from = &__data_load;
  while (to < &__data_end) *to++ = *from++;
  for (to = &__bss_start; to < &__bss_end;) *to++ = 0;
  /* The FPU on (CPACR: CP10, CP11 full access), for the hard-float ABI. */
  *(volatile uint32_t *)0xE000ED88 |= 0xFu << 20;
  __asm__ volatile("dsb\n isb");
  exit_qemu(main());
}

static void fault(void) {
  put("fault\n");
  exit_qemu(1);
}

__attribute__((section(".vectors"), used)) static const void *const vectors[16] = {
    &__stack_top, (void *)reset, (void *)fault, (void *)fault, (void *)fault,
    (void *)fault, (void *)fault};

/* --- the counter: CMSDK APB timer 0 --- */
#define TIMER0 0x40000000u
#define CTRL (*(volatile uint32_t *)(TIMER0 + 0x0))
#define VALUE (*(volatile uint32_t *)(TIMER0 + 0x4))
#define RELOAD (*(volatile uint32_t *)(TIMER0 + 0x8))
#define INTSTATUS (*(volatile uint32_t *)(TIMER0 + 0xC))

static void timer_init(void) {
  CTRL = 0;
  RELOAD = 0xFFFFFFFFu;
  VALUE = 0xFFFFFFFFu;
  INTSTATUS = 1;
  CTRL = 0x9; /* enable, latch the wrap */
}

/* The inputs of the official KATs: 00 01 02 ... */
static uint8_t key[16], nonce[12], buffer[128 + 16];

typedef int (*encrypt_fn)(uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t,
                          const uint8_t *, const uint8_t *);
typedef int (*decrypt_fn)(uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t,
                          const uint8_t *, const uint8_t *);

static encrypt_fn volatile measured;
static size_t volatile measured_len;
static int volatile status;

/* One call of the measured function, not inlined: what is counted. */
__attribute__((noinline)) static void one_call(void) {
  status = measured(buffer, buffer, measured_len, NULL, 0, nonce, key);
}

__attribute__((noinline)) static void empty_call(void) { status = 0; }

/* Instructions of one call of f: ticks x 40 / 1024, rounded. */
__attribute__((noinline)) static uint32_t count(void (*f)(void)) {
  uint32_t start, end;
  VALUE = 0xFFFFFFFFu;
  INTSTATUS = 1;
  start = VALUE;
  f();
  end = VALUE;
  return (uint32_t)(((uint64_t)(start - end) * 40 + 512) / 1024);
}

/* Peak stack of one call of f: paint 4 KiB below SP, call, find the
   lowest word changed. The paint loop uses registers only. */
#define REGION 4096u
__attribute__((noinline)) static uint32_t peak_stack(void (*f)(void)) {
  uint32_t sp, at;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  __asm__ volatile(
      "1: subs %0, #4\n str %2, [%0]\n cmp %0, %1\n bne 1b"
      : "+r"(sp)
      : "r"(sp - REGION), "r"(0xDEADBEEFu)
      : "memory", "cc");
  /* sp is now the bottom of the painted region. */
  f();
  for (at = sp; at < sp + REGION && *(volatile uint32_t *)at == 0xDEADBEEFu; at += 4) {
  }
  return sp + REGION - at;
}

static const uint8_t kat_dumbo[24] = {0x08, 0x67, 0x29, 0x0A, 0xD2, 0x9D, 0x21, 0x9C,
                                      0x4B, 0xF3, 0xBF, 0x0B, 0xD6, 0x52, 0x09, 0x9B,
                                      0xA0, 0xE7, 0xFC, 0xE0, 0x7C, 0x71, 0xC3, 0xEB};
static const uint8_t kat_jumbo[24] = {0xAE, 0x5D, 0x4F, 0x2B, 0xFA, 0xE6, 0xD4, 0x32,
                                      0xA1, 0xB6, 0xE9, 0x2E, 0xB8, 0x95, 0x5A, 0x7F,
                                      0x8E, 0xF4, 0x99, 0x2B, 0x28, 0xDA, 0x95, 0xC5};
static const uint8_t kat_delirium[32] = {
    0x1E, 0xBB, 0xE2, 0x9D, 0x3E, 0xC4, 0xD5, 0x74, 0x84, 0x09, 0x05, 0xEF, 0xCE, 0xBF, 0xB4, 0x0D,
    0x7A, 0xDD, 0xCA, 0x6B, 0xFE, 0xC2, 0x52, 0xFB, 0xDC, 0x5E, 0x84, 0x78, 0x4B, 0xC4, 0xF7, 0xE3};

static void fill(size_t len) {
  size_t i;
  for (i = 0; i < len; i++) buffer[i] = (uint8_t)i;
}

/* Measures and checks one instance; returns the number of failures. */
static int bench(const char *name, encrypt_fn encrypt, decrypt_fn decrypt, size_t tag,
                 const uint8_t *kat, uint32_t overhead) {
  static const size_t sizes[2] = {16, 128};
  uint32_t counts[2], stack;
  int failed = 0, i;
  size_t j;
  measured = encrypt;
  for (i = 0; i < 2; i++) {
    fill(sizes[i]);
    measured_len = sizes[i];
    counts[i] = count(one_call) - overhead;
    failed |= status != ELEPHANT_OK;
    if (i == 0) {
      for (j = 0; j < 16 + tag; j++) failed |= buffer[j] != kat[j];
    }
    failed |= decrypt(buffer, buffer, sizes[i] + tag, NULL, 0, nonce, key) != ELEPHANT_OK;
    for (j = 0; j < sizes[i]; j++) failed |= buffer[j] != (uint8_t)j;
  }
  fill(128);
  stack = peak_stack(one_call);
  put("| ");
  put(name);
  put(" | ");
  put_number(counts[0]);
  put(" | ");
  put_number(counts[1]);
  put(" | ");
  put_number(stack);
  put(failed ? " | FAILED |\n" : " | ok |\n");
  return failed;
}

int main(void) {
  int failed = 0, i;
  uint32_t overhead;
  for (i = 0; i < 16; i++) key[i] = (uint8_t)i;
  for (i = 0; i < 12; i++) nonce[i] = (uint8_t)i;
  timer_init();
  overhead = count(empty_call);
  put("| instance | enc 16 B | enc 128 B | peak stack B | KAT and round trip |\n");
  put("|---|---|---|---|---|\n");
  failed += bench("Dumbo", elephant_dumbo_encrypt, elephant_dumbo_decrypt, 8, kat_dumbo, overhead);
  failed += bench("Jumbo", elephant_jumbo_encrypt, elephant_jumbo_decrypt, 8, kat_jumbo, overhead);
  failed += bench("Delirium", elephant_delirium_encrypt, elephant_delirium_decrypt, 16,
                  kat_delirium, overhead);
  put(failed ? "capi firmware: FAILED\n" : "capi firmware: all checks passed\n");
  return failed;
}
