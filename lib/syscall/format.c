// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* A syscall's arguments, as tracefs' sys_enter_NAME/format lists them. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <ember/syscall.h>

/* "\tfield:const char * filename;\toffset:24;..." -> type "const char *", name "filename" */
static int parse_field(const char *line, struct ember_syscall_arg *arg)
{
	const char *decl = strstr(line, "field:"), *end, *name;
	size_t type_len, name_len;

	if (!decl)
		return -EINVAL;
	decl += strlen("field:");
	end = strchr(decl, ';');
	if (!end)
		return -EINVAL;
	name = end;
	while (name > decl && name[-1] != ' ' && name[-1] != '*')
		name--;
	name_len = end - name;
	type_len = name - decl;
	while (type_len && decl[type_len - 1] == ' ')
		type_len--;
	if (!name_len || !type_len || name_len >= sizeof(arg->name) ||
	    type_len >= sizeof(arg->type))
		return -EINVAL;
	memcpy(arg->name, name, name_len);
	arg->name[name_len] = '\0';
	memcpy(arg->type, decl, type_len);
	arg->type[type_len] = '\0';
	return 0;
}

int ember_syscall__read_format(const char *root, const char *name,
			       struct ember_syscall_format *fmt)
{
	char path[4096], line[512];
	FILE *f;
	int err = 0;

	memset(fmt, 0, sizeof(*fmt));
	if (snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_%s/format", root, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		struct ember_syscall_arg arg;

		if (parse_field(line, &arg))
			continue;
		if (!strncmp(arg.name, "common_", 7) || !strcmp(arg.name, "__syscall_nr"))
			continue;
		if (fmt->nr_args == EMBER_SYSCALL_MAX_ARGS) {
			err = -E2BIG;
			break;
		}
		fmt->args[fmt->nr_args++] = arg;
	}
	fclose(f);
	return err;
}
