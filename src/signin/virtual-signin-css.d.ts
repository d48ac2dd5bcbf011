// Made at build time by src/signin/signinCss.ts (signInSheet): the sign-in page's stylesheet.
declare module 'virtual:signin.css';
