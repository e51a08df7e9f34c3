/* `ddigen generate`: every stage that exists, end to end. */
#ifndef DDIGEN_GENERATE_H
#define DDIGEN_GENERATE_H

int ddigen_cmd_generate(int argc, char **argv);

#endif
