/* ddigen check-driver: a driver's own callback definitions, parsed with
 * libclang, against the DDI's function types in a spec. */
#ifndef DDIGEN_CHECKDRIVER_H
#define DDIGEN_CHECKDRIVER_H

int ddigen_cmd_check_driver(int argc, char **argv);

#endif
