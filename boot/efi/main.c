/*
 * main.c - tally.efi: start the Tally kernel straight from UEFI firmware.
 *
 * The kernel is entered the way every other loader enters it: at its one
 * 32-bit entry, in multiboot state (arch/x86_64/efi_handoff.h says how and
 * why).  This application, built with gnu-efi, does what GRUB would:
 *
 *   1. the command line: the words of tally-cmdline.txt beside this file
 *      on its volume (for a USB stick), then the load options (what a
 *      boot entry or the shell passes); its own options are taken out;
 *   2. the kernel: the ELF built into this file (or efi.kernel=PATH on
 *      the same volume), copied to the physical addresses it was linked
 *      for, which must be free;
 *   3. the ACPI RSDP from the configuration table, the firmware's name;
 *   4. the memory map and ExitBootServices, again with a fresh map while
 *      the firmware says the map key is stale;
 *   5. the jump, through a trampoline page below 4 GiB (trampoline.S).
 *
 * Any firmware error before ExitBootServices is printed with its status
 * name and the application returns it to the firmware, which goes on to
 * its next boot option.  After ExitBootServices has been called there is
 * no console service left, so a failure is written to COM1 directly and
 * the CPU halts.
 */
#include <efi.h>
#include <efilib.h>

#include "arch/x86_64/efi_handoff.h"
#include "boot/efi/cmdline.h"
#include "boot/efi/elfplan.h"
#include "boot/efi/status.h"

#define CMDLINE_FILE        L"tally-cmdline.txt"
#define CMDLINE_FILE_MAX    (4 * CMDLINE_MAX)   /* comments allowed */
#define KERNEL_FILE_MAX     (64u << 20)
#define OPT_KERNEL          "efi.kernel"
/* Makes the first memory map stale on purpose, so the retry is tested. */
#define OPT_STALE_KEY       "efi.stalekey"
#define PATH_MAX_CHARS      256
#define BELOW_4GIB          0xffffffffull
/* Descriptors the map may grow by between sizing the block and the last
 * GetMemoryMap (the block's own allocation splits a range, and so on). */
#define MAP_SLACK_DESCS     32
#define EXIT_ATTEMPTS_MAX   8
#define ERROR_PAUSE_US      3000000u    /* so a person can read the message */

#define COM1_PORT           0x3f8
#define UART_LSR            5
#define UART_LSR_THRE       0x20

/* kernel_blob.S and trampoline.S */
extern const uint8_t tally_kernel_elf[], tally_kernel_elf_end[];
extern const uint8_t efi_trampoline[], efi_trampoline_end[];

typedef void trampoline_fn(uint64_t entry, uint32_t magic, uint32_t info)
	__attribute__((sysv_abi));

/* gnu-efi's crt0 calls it (SysV) after applying the relocations. */
EFI_STATUS efi_main(EFI_HANDLE image_handle, EFI_SYSTEM_TABLE *systab);

static EFI_HANDLE image;

static uint64_t pages_for(uint64_t bytes)
{
	return (bytes + EFI_PAGE_SIZE - 1) / EFI_PAGE_SIZE;
}

static void copy(void *dst, const void *src, uint64_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	while (n--)
		*d++ = *s++;
}

static void zero(void *dst, uint64_t n)
{
	uint8_t *d = dst;

	while (n--)
		*d++ = 0;
}

/* "EFI_NOT_FOUND", or the number when the specification names none. */
static void print_status(EFI_STATUS status)
{
	const char *name = efi_status_name(status);

	if (name)
		Print(L"%a", name);
	else
		Print(L"EFI status 0x%lx", (UINT64)status);
}

static EFI_STATUS fail(const char *what, EFI_STATUS status)
{
	Print(L"tally.efi: error: %a: ", what);
	print_status(status);
	Print(L"\r\ntally.efi: not started; back to the firmware\r\n");
	BS->Stall(ERROR_PAUSE_US);
	return status;
}

static EFI_STATUS fail_file(const char *what, const CHAR16 *path, EFI_STATUS status)
{
	Print(L"tally.efi: error: %a %s: ", what, path);
	print_status(status);
	Print(L"\r\ntally.efi: not started; back to the firmware\r\n");
	BS->Stall(ERROR_PAUSE_US);
	return status;
}

static EFI_STATUS refuse(const char *what, const char *why, EFI_STATUS status)
{
	Print(L"tally.efi: error: %a: %a (", what, why);
	print_status(status);
	Print(L")\r\ntally.efi: not started; back to the firmware\r\n");
	BS->Stall(ERROR_PAUSE_US);
	return status;
}

/* ---- after ExitBootServices: COM1 only ----------------------------------- */

static void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static uint8_t inb(uint16_t port)
{
	uint8_t v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static void com1_puts(const char *s)
{
	for (; *s; s++) {
		for (unsigned spin = 0; spin < 100000; spin++)
			if (inb(COM1_PORT + UART_LSR) & UART_LSR_THRE)
				break;
		outb(COM1_PORT, (uint8_t)*s);
	}
}

static void __attribute__((noreturn)) die_without_firmware(const char *what, EFI_STATUS status)
{
	const char *name = efi_status_name(status);

	com1_puts("tally.efi: error: ");
	com1_puts(what);
	com1_puts(": ");
	com1_puts(name ? name : "unnamed EFI status");
	com1_puts("\r\ntally.efi: boot services are gone; halted\r\n");
	for (;;)
		__asm__ volatile("cli; hlt");
}

/* ---- files on this application's volume ---------------------------------- */

/* The path of this .efi on its volume, from the file-path nodes of its
 * device path ("\EFI\BOOT\BOOTX64.EFI"); empty when it has none. */
static void image_path(const EFI_LOADED_IMAGE *li, CHAR16 *out, UINTN cap)
{
	EFI_DEVICE_PATH *dp = li->FilePath;
	UINTN n = 0;

	out[0] = 0;
	for (; dp && !IsDevicePathEnd(dp); dp = NextDevicePathNode(dp)) {
		const FILEPATH_DEVICE_PATH *f = (const FILEPATH_DEVICE_PATH *)dp;
		UINTN chars;

		if (DevicePathType(dp) != MEDIA_DEVICE_PATH ||
		    DevicePathSubType(dp) != MEDIA_FILEPATH_DP)
			continue;
		chars = (DevicePathNodeLength(dp) - sizeof(dp[0])) / sizeof(CHAR16);
		for (UINTN i = 0; i < chars && f->PathName[i] && n + 1 < cap; i++)
			out[n++] = f->PathName[i];
	}
	out[n] = 0;
}

/* dir of this image + name: "\EFI\BOOT\" + "tally-cmdline.txt". */
static void beside_image(const EFI_LOADED_IMAGE *li, const CHAR16 *name,
			 CHAR16 *out, UINTN cap)
{
	UINTN n, cut = 0;

	image_path(li, out, cap);
	for (n = 0; out[n]; n++)
		if (out[n] == L'\\')
			cut = n + 1;
	n = cut;
	if (n == 0)
		out[n++] = L'\\';
	for (UINTN i = 0; name[i] && n + 1 < cap; i++)
		out[n++] = name[i];
	out[n] = 0;
}

static EFI_STATUS open_root(const EFI_LOADED_IMAGE *li, EFI_FILE_HANDLE *root)
{
	EFI_FILE_IO_INTERFACE *fs;
	EFI_STATUS s;

	s = BS->HandleProtocol(li->DeviceHandle, &FileSystemProtocol, (void **)&fs);
	if (EFI_ERROR(s))
		return s;
	return fs->OpenVolume(fs, root);
}

/*
 * Read the whole file at path into pool memory; *size gets its length.
 * EFI_BAD_BUFFER_SIZE when it is longer than max.
 */
static EFI_STATUS read_file(EFI_FILE_HANDLE root, const CHAR16 *path, UINTN max,
			    void **data, UINTN *size)
{
	EFI_FILE_HANDLE f;
	EFI_FILE_INFO *info;
	EFI_STATUS s;
	UINTN len;

	s = root->Open(root, &f, (CHAR16 *)path, EFI_FILE_MODE_READ, 0);
	if (EFI_ERROR(s))
		return s;
	info = LibFileInfo(f);
	if (!info) {
		f->Close(f);
		return EFI_DEVICE_ERROR;
	}
	len = info->FileSize;
	FreePool(info);
	if (len > max) {
		f->Close(f);
		return EFI_BAD_BUFFER_SIZE;
	}
	s = BS->AllocatePool(EfiLoaderData, len + 1, data);
	if (!EFI_ERROR(s)) {
		*size = len;
		s = f->Read(f, size, *data);
		if (EFI_ERROR(s))
			FreePool(*data);
	}
	f->Close(f);
	return s;
}

/* ---- 1. command line ------------------------------------------------------ */

static EFI_STATUS build_cmdline(const EFI_LOADED_IMAGE *li, EFI_FILE_HANDLE root,
				struct cmdline *c)
{
	CHAR16 path[PATH_MAX_CHARS];
	void *text;
	UINTN len;
	EFI_STATUS s;
	int rc;

	cmdline_init(c);
	if (root) {
		beside_image(li, CMDLINE_FILE, path, PATH_MAX_CHARS);
		s = read_file(root, path, CMDLINE_FILE_MAX, &text, &len);
		if (s == EFI_SUCCESS) {
			rc = cmdline_add_text(c, text, len, 1);
			FreePool(text);
			if (rc == CMDLINE_NOT_TEXT)
				return refuse("tally-cmdline.txt", "not ASCII text",
					      EFI_INVALID_PARAMETER);
			if (rc == CMDLINE_TOO_LONG)
				return refuse("tally-cmdline.txt", "command line too long",
					      EFI_BAD_BUFFER_SIZE);
			Print(L"tally.efi: command line file %s\r\n", path);
		} else if (s != EFI_NOT_FOUND) {
			return fail_file("reading", path, s);
		}
	}
	if (li->LoadOptionsSize > 0) {
		rc = cmdline_add_ucs2(c, li->LoadOptions, li->LoadOptionsSize);
		if (rc == CMDLINE_NOT_TEXT)
			Print(L"tally.efi: load options are not text (%d bytes), ignored\r\n",
			      (int)li->LoadOptionsSize);
		else if (rc == CMDLINE_TOO_LONG)
			return refuse("load options", "command line too long",
				      EFI_BAD_BUFFER_SIZE);
	}
	return EFI_SUCCESS;
}

/* ---- 2. kernel --------------------------------------------------------- */

static EFI_STATUS kernel_from_file(EFI_FILE_HANDLE root, const char *name,
				   const void **elf, UINTN *size)
{
	CHAR16 path[PATH_MAX_CHARS];
	UINTN n = 0;
	EFI_STATUS s;

	if (!root)
		return fail("efi.kernel: this image's volume has no file system",
			    EFI_UNSUPPORTED);
	for (; name[n] && n + 1 < PATH_MAX_CHARS; n++)
		path[n] = name[n] == '/' ? L'\\' : (CHAR16)name[n];
	path[n] = 0;
	s = read_file(root, path, KERNEL_FILE_MAX, (void **)elf, size);
	if (EFI_ERROR(s))
		return fail_file("reading the kernel", path, s);
	Print(L"tally.efi: kernel from %s (%d bytes)\r\n", path, (int)*size);
	return EFI_SUCCESS;
}

static EFI_STATUS place_kernel(const void *elf, UINTN size, struct elfplan *plan)
{
	EFI_PHYSICAL_ADDRESS at;
	const char *why;
	EFI_STATUS s;

	if (elfplan_make(elf, size, plan, &why))
		return refuse("kernel ELF", why, EFI_LOAD_ERROR);
	at = plan->lo;
	s = BS->AllocatePages(AllocateAddress, EfiLoaderData,
			      pages_for(plan->hi - plan->lo), &at);
	if (EFI_ERROR(s)) {
		Print(L"tally.efi: the kernel needs physical 0x%lx-0x%lx\r\n",
		      plan->lo, plan->hi);
		return fail("allocating the kernel's memory", s);
	}
	for (unsigned i = 0; i < plan->nseg; i++) {
		const struct elfplan_seg *g = &plan->seg[i];

		copy((void *)(UINTN)g->paddr, (const uint8_t *)elf + g->offset, g->filesz);
		zero((void *)(UINTN)(g->paddr + g->filesz), g->memsz - g->filesz);
	}
	return EFI_SUCCESS;
}

/* ---- 3. firmware facts ---------------------------------------------------- */

static int same_guid(const EFI_GUID *a, const EFI_GUID *b)
{
	const uint8_t *x = (const uint8_t *)a, *y = (const uint8_t *)b;

	for (unsigned i = 0; i < sizeof(EFI_GUID); i++)
		if (x[i] != y[i])
			return 0;
	return 1;
}

/* ACPI 2.0's table (XSDT) is preferred; a 1.0-only firmware has the other. */
static void find_rsdp(struct efi_handoff *h)
{
	static const EFI_GUID acpi2 = ACPI_20_TABLE_GUID, acpi1 = ACPI_TABLE_GUID;

	h->acpi_rsdp = 0;
	h->acpi_rsdp_guid_version = 0;
	for (UINTN i = 0; i < ST->NumberOfTableEntries; i++) {
		const EFI_CONFIGURATION_TABLE *t = &ST->ConfigurationTable[i];

		if (same_guid(&t->VendorGuid, &acpi2)) {
			h->acpi_rsdp = (uint64_t)(UINTN)t->VendorTable;
			h->acpi_rsdp_guid_version = 2;
			return;
		}
		if (same_guid(&t->VendorGuid, &acpi1)) {
			h->acpi_rsdp = (uint64_t)(UINTN)t->VendorTable;
			h->acpi_rsdp_guid_version = 1;
		}
	}
}

static void firmware_name(struct efi_handoff *h)
{
	const CHAR16 *v = ST->FirmwareVendor;
	UINTN n = 0;

	for (; v && v[n] && n + 1 < sizeof(h->firmware_vendor); n++)
		h->firmware_vendor[n] = v[n] >= 0x20 && v[n] < 0x7f ? (char)v[n] : '?';
	h->firmware_vendor[n] = '\0';
	h->firmware_revision = ST->FirmwareRevision;
	h->uefi_revision = ST->Hdr.Revision;
}

/* ---- 4, 5. the block, the map, the exit, the jump ------------------------ */

static EFI_STATUS map_size_now(UINTN *size, UINTN *desc_size)
{
	UINTN key;
	UINT32 version;
	EFI_STATUS s;

	*size = 0;
	s = BS->GetMemoryMap(size, NULL, &key, desc_size, &version);
	return s == EFI_BUFFER_TOO_SMALL ? EFI_SUCCESS : s;
}

static EFI_STATUS alloc_low(EFI_MEMORY_TYPE type, uint64_t bytes, void **out)
{
	EFI_PHYSICAL_ADDRESS at = BELOW_4GIB;
	EFI_STATUS s;

	s = BS->AllocatePages(AllocateMaxAddress, type, pages_for(bytes), &at);
	if (!EFI_ERROR(s))
		*out = (void *)(UINTN)at;
	return s;
}

/*
 * Returns only on failure before the first ExitBootServices call.  The
 * map is read into the block itself, which already exists, because no
 * allocation is allowed between the last GetMemoryMap and the exit.
 */
static EFI_STATUS exit_and_enter(struct efi_handoff *h, uint64_t map_cap,
				 uint64_t entry, void *trampoline, int stale_key)
{
	EFI_MEMORY_DESCRIPTOR *map = (void *)(UINTN)h->mmap;
	UINTN size, key, desc_size;
	UINT32 version;
	EFI_STATUS s;

	for (unsigned attempt = 1; attempt <= EXIT_ATTEMPTS_MAX; attempt++) {
		size = map_cap;
		s = BS->GetMemoryMap(&size, map, &key, &desc_size, &version);
		if (EFI_ERROR(s)) {
			if (attempt == 1)
				return fail("reading the memory map", s);
			die_without_firmware("reading the memory map again", s);
		}
		if (stale_key && attempt == 1) {
			/* A page taken after the map was read: the key is stale. */
			EFI_PHYSICAL_ADDRESS junk;

			s = BS->AllocatePages(AllocateAnyPages, EfiLoaderData, 1, &junk);
			if (EFI_ERROR(s))
				return fail("efi.stalekey: allocating a page", s);
		}
		h->exit_attempts = attempt;
		h->mmap_size = (uint32_t)size;
		h->mmap_desc_size = (uint32_t)desc_size;
		h->mmap_desc_version = version;
		s = BS->ExitBootServices(image, key);
		if (s == EFI_SUCCESS)
			((trampoline_fn *)trampoline)(entry, EFI_HANDOFF_MAGIC,
						      (uint32_t)(UINTN)h);
		/* EFI_INVALID_PARAMETER: the map changed; read it again.  Any
		 * other refusal may still have shut boot services down in part
		 * (UEFI 2.10, 7.4), so there is no going back to the firmware. */
		if (s != EFI_INVALID_PARAMETER)
			die_without_firmware("exiting boot services", s);
	}
	die_without_firmware("exiting boot services: the map key stays stale",
			     EFI_INVALID_PARAMETER);
}

EFI_STATUS efi_main(EFI_HANDLE image_handle, EFI_SYSTEM_TABLE *systab)
{
	EFI_LOADED_IMAGE *li;
	EFI_FILE_HANDLE root = NULL;
	static struct cmdline c;
	char kernel_path[PATH_MAX_CHARS], flag[8];
	const void *elf = tally_kernel_elf;
	UINTN elf_size = (UINTN)(tally_kernel_elf_end - tally_kernel_elf);
	struct elfplan plan;
	struct efi_handoff *h;
	void *trampoline;
	UINTN map_bytes, desc_size;
	uint64_t header, map_cap;
	EFI_STATUS s;
	int stale_key;

	InitializeLib(image_handle, systab);
	image = image_handle;
	Print(L"tally.efi: Tally's UEFI loader\r\n");

	s = BS->HandleProtocol(image, &LoadedImageProtocol, (void **)&li);
	if (EFI_ERROR(s))
		return fail("finding this image (loaded image protocol)", s);
	/* No file system (e.g. QEMU's -kernel) just means no file beside. */
	if (EFI_ERROR(open_root(li, &root)))
		root = NULL;

	s = build_cmdline(li, root, &c);
	if (EFI_ERROR(s))
		return s;
	stale_key = cmdline_take(&c, OPT_STALE_KEY, flag, sizeof(flag)) > 0;
	if (cmdline_take(&c, OPT_KERNEL, kernel_path, sizeof(kernel_path)) > 0) {
		s = kernel_from_file(root, kernel_path, &elf, &elf_size);
		if (EFI_ERROR(s))
			return s;
	}
	Print(L"tally.efi: command line: %a\r\n", c.text);

	s = place_kernel(elf, elf_size, &plan);
	if (EFI_ERROR(s))
		return s;

	s = alloc_low(EfiLoaderCode, (uint64_t)(efi_trampoline_end - efi_trampoline),
		      &trampoline);
	if (EFI_ERROR(s))
		return fail("allocating the trampoline page below 4 GiB", s);
	copy(trampoline, efi_trampoline, (uint64_t)(efi_trampoline_end - efi_trampoline));

	s = map_size_now(&map_bytes, &desc_size);
	if (EFI_ERROR(s))
		return fail("sizing the memory map", s);
	header = (sizeof(*h) + 15) & ~15ull;
	map_cap = map_bytes + MAP_SLACK_DESCS * desc_size;
	s = alloc_low(EfiLoaderData, header + CMDLINE_MAX + map_cap, (void **)&h);
	if (EFI_ERROR(s))
		return fail("allocating the hand-off block below 4 GiB", s);
	zero(h, header + CMDLINE_MAX);
	h->magic = EFI_HANDOFF_MAGIC;
	h->version = EFI_HANDOFF_VERSION;
	h->total_size = (uint32_t)(header + CMDLINE_MAX + map_cap);
	h->cmdline = (uint64_t)(UINTN)h + header;
	copy((void *)(UINTN)h->cmdline, c.text, c.len + 1);
	h->mmap = h->cmdline + CMDLINE_MAX;
	find_rsdp(h);
	firmware_name(h);

	Print(L"tally.efi: kernel at 0x%lx-0x%lx, entry 0x%lx; ACPI RSDP 0x%lx\r\n",
	      plan.lo, plan.hi, plan.entry, h->acpi_rsdp);
	Print(L"tally.efi: exiting boot services\r\n");
	return exit_and_enter(h, map_cap, plan.entry, trampoline, stale_key);
}
