export const decide = 1;
