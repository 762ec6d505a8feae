import { render } from 'preact';
import { App } from './app';
import './console.css';

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
